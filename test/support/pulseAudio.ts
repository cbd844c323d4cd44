import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from './waitUntil';

const TOOLS = ['pulseaudio', 'parec', 'pactl', 'paplay', 'espeak-ng'];

/** What `listen`'s tests need that is not installed (apt: pulseaudio pulseaudio-utils espeak-ng). */
export function missingAudioPrograms(): string[] {
  return TOOLS.filter((tool) => {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
}

export interface PulseAudioServer {
  /** PULSE_SERVER and the home and runtime folders the server and its clients use. */
  env: NodeJS.ProcessEnv;
  /** A WAV of espeak-ng saying "list the files here". */
  speech: string;
  /** Plays the speech into the null sink (the default sink): what `listen` on `system` hears. */
  play(): void;
  /** Whether something records from the server now (parec connected). */
  recording(): boolean;
  stop(): void;
}

/**
 * A private PulseAudio server for one test file: its own socket in a temporary folder,
 * anonymous access, one null sink `tandem_test` as the default sink (its monitor is the
 * default monitor).
 */
export async function startPulseAudio(): Promise<PulseAudioServer> {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-pulse-'));
  const socket = join(dir, 'native');
  const env = { PATH: process.env.PATH, HOME: dir, XDG_RUNTIME_DIR: dir, PULSE_SERVER: `unix:${socket}` };
  const server: ChildProcess = spawn(
    'pulseaudio',
    ['-n', '--daemonize=no', '--exit-idle-time=-1', '-L', `module-native-protocol-unix socket=${socket} auth-anonymous=1`, '-L', 'module-null-sink sink_name=tandem_test'],
    { env, stdio: 'ignore' },
  );
  await waitUntil(() => existsSync(socket), 'the PulseAudio socket');
  execFileSync('pactl', ['set-default-sink', 'tandem_test'], { env });
  const speech = join(dir, 'speech.wav');
  execFileSync('espeak-ng', ['-v', 'en-us', '-w', speech, 'list the files here']);
  return {
    env,
    speech,
    play: () => execFileSync('paplay', ['-d', 'tandem_test', speech], { env }),
    recording: () => execFileSync('pactl', ['list', 'short', 'source-outputs'], { env, encoding: 'utf8' }).trim() !== '',
    stop: () => {
      server.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
