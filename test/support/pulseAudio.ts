import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wav16k } from './transcriptionServer';
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
  /** A WAV of espeak-ng saying "list the files here" ten times (about 13 s): what an application plays on. */
  longSpeech: string;
  /** A WAV of a loud 440 Hz tone, 30 s. */
  tone: string;
  /** A WAV of 30 s of exact silence. */
  silence: string;
  /**
   * Plays `wav` into the null sink as an application named `application` (paplay's
   * `--client-name` sets `application.name`), and resolves once the stream plays in step with
   * the clock. It asks for 50 ms of latency, as players do: the null sink then plays in small
   * blocks, not 2 s ahead. Stopped by the test or at the end of the file.
   */
  playAs(application: string, wav: string): Promise<{ stop(): void }>;
  /** Whether something records from the server now (parec connected). */
  recording(): boolean;
  stop(): void;
}

/** A 16 kHz mono 16-bit WAV of `samples`. */
function wavFile(path: string, samples: Int16Array): void {
  writeFileSync(path, wav16k(samples));
}

/**
 * Whether the stream of the player with process id `pid` is playing in step with the clock: it
 * exists and the sink plays it less than 200 ms ahead. A null sink that idled renders 2 s ahead, so a stream that
 * just started is heard (and its monitor records) only once that block has played out.
 */
function playsInStep(pid: number, env: NodeJS.ProcessEnv): boolean {
  const streams = JSON.parse(execFileSync('pactl', ['-f', 'json', 'list', 'sink-inputs'], { env, encoding: 'utf8' })) as { properties: Record<string, string>; sink_latency_usec: number }[];
  const stream = streams.find((candidate) => candidate.properties['application.process.id'] === String(pid));
  return stream !== undefined && stream.sink_latency_usec < 200_000;
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
  const longSpeech = join(dir, 'long-speech.wav');
  execFileSync('espeak-ng', ['-v', 'en-us', '-w', longSpeech, Array(10).fill('list the files here.').join(' ')]);
  const seconds = 30;
  const tone = join(dir, 'tone.wav');
  wavFile(tone, Int16Array.from({ length: seconds * 16_000 }, (_, index) => Math.round(16_000 * Math.sin((2 * Math.PI * 440 * index) / 16_000))));
  const silence = join(dir, 'silence.wav');
  wavFile(silence, new Int16Array(seconds * 16_000));
  const players = new Set<ChildProcess>();
  return {
    env,
    speech,
    longSpeech,
    tone,
    silence,
    play: () => execFileSync('paplay', ['-d', 'tandem_test', speech], { env }),
    playAs: async (application, wav) => {
      const player = spawn('paplay', ['-d', 'tandem_test', `--client-name=${application}`, '--latency-msec=50', wav], { env, stdio: 'ignore' });
      players.add(player);
      player.on('exit', () => players.delete(player));
      await waitUntil(() => playsInStep(player.pid!, env), `${application}'s stream to play`);
      return { stop: () => player.kill('SIGTERM') };
    },
    recording: () => execFileSync('pactl', ['list', 'short', 'source-outputs'], { env, encoding: 'utf8' }).trim() !== '',
    stop: () => {
      for (const player of players) player.kill('SIGTERM');
      server.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
