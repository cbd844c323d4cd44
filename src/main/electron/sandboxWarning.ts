import type { HostWarning } from '../../shared/protocol';

/**
 * The renderer's OS sandbox is off when Chromium was started with `--no-sandbox` (the
 * AppImage launcher adds it where unprivileged user namespaces are restricted, e.g. Ubuntu
 * 23.10 and later) or with ELECTRON_DISABLE_SANDBOX set. The user is told, not left to guess.
 */
export function sandboxWarnings(hasSwitch: (name: string) => boolean, env: NodeJS.ProcessEnv): HostWarning[] {
  const off = hasSwitch('no-sandbox') || Boolean(env.ELECTRON_DISABLE_SANDBOX);
  if (!off) return [];
  return [
    {
      key: 'sandbox-off',
      message: "Tandem is running without Chromium's OS sandbox.",
      detail:
        'The window still isolates pages from Node, but a compromised renderer would not be contained by the OS. ' +
        'Install the .deb package (it brings an AppArmor profile that allows the sandbox) instead of the AppImage, ' +
        'or allow unprivileged user namespaces.',
    },
  ];
}
