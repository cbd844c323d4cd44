import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export type AudioAvailability = { available: true } | { available: false; reason: string };

/** The longest `pactl info` may take to say whether a sound server answers. */
const PACTL_TIMEOUT_MS = 5_000;

function onPath(program: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(delimiter).some((folder) => {
    if (!folder) return false;
    try {
      accessSync(join(folder, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Whether `listen` can record here: Linux with `parec` and `pactl` (pulseaudio-utils) and a
 * PulseAudio server (or PipeWire's pulse service) that answers. Asked before the user is, so a
 * step that cannot run is refused with the reason instead of asking.
 */
export async function audioAvailability(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Promise<AudioAvailability> {
  if (platform !== 'linux') return { available: false, reason: 'recording audio needs PulseAudio or PipeWire; macOS and Windows (a loopback device such as BlackHole) are not supported yet' };
  const missing = ['parec', 'pactl'].filter((program) => !onPath(program, env));
  if (missing.length > 0) return { available: false, reason: `${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not installed (the pulseaudio-utils package): audio cannot be recorded here` };
  return new Promise((resolve) => {
    execFile('pactl', ['info'], { env, timeout: PACTL_TIMEOUT_MS }, (error, _stdout, stderr) => {
      if (!error) resolve({ available: true });
      else resolve({ available: false, reason: `no PulseAudio/PipeWire server answers (pactl info: ${String(stderr).trim() || error.message}): audio cannot be recorded here` });
    });
  });
}
