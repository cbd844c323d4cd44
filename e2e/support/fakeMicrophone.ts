import { readFileSync } from 'node:fs';

const chromium = JSON.parse(readFileSync(new URL('./chromium.json', import.meta.url), 'utf8')) as { defaultPath: string; args: string[] };

/** Launch options for a spec whose Chromium hears `wav` as its microphone, and allows it without asking. */
export function fakeMicrophoneLaunch(wav: string) {
  return {
    executablePath: process.env.CHROMIUM_PATH ?? chromium.defaultPath,
    args: [...chromium.args, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${wav}`],
  };
}
