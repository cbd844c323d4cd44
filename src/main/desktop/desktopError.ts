/**
 * Why a desktop request was not done. `unavailable`: this system has no implementation
 * (Wayland without X, macOS, Windows, no DISPLAY); `excluded`: the target is a window the
 * privacy list protects; `not_found`: no such window or screen; `outside`: a point is not
 * inside the screenshot it refers to; `failed`: a tool or API failed; `interrupted`: the
 * caller aborted the request (its tools were killed). The message is meant
 * to be shown to the user and the model as is.
 */
export type DesktopErrorCode = 'unavailable' | 'excluded' | 'not_found' | 'outside' | 'invalid' | 'failed' | 'interrupted';

export class DesktopError extends Error {
  constructor(
    readonly code: DesktopErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DesktopError';
  }
}

/** Stops a request whose caller aborted it, between steps that cannot be cut short themselves. */
export function stopIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new DesktopError('interrupted', 'the request was interrupted');
}
