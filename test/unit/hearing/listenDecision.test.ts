import { describe, expect, it } from 'vitest';
import { decideAudio, type ProposedListen } from '../../../src/main/safety/approval/audioDecision';
import { SessionGrants } from '../../../src/main/safety/approval/sessionGrants';
import type { PolicyLayer } from '../../../src/main/safety/policy/policyFiles';
import { narrowingOnly } from '../../../src/main/safety/policy/narrowingPolicy';
import { PolicySchema } from '../../../src/main/safety/policy/policySchema';
import { audioAvailability } from '../../../src/main/agent/hearing/audioAvailability';
import { ListenSteps } from '../../../src/main/agent/hearing/listenSteps';
import { ListenInputSchema } from '../../../src/main/agent/tools/listenTool';
import type { ApprovalGate } from '../../../src/main/safety/approval/approvalGate';

const SYSTEM: ProposedListen = { command: 'listen: record system audio for 10 s', source: 'system', shape: 'listen to system audio' };
const MIC: ProposedListen = { command: 'listen: record the microphone for 5 s', source: 'microphone', shape: 'listen to the microphone' };
const FIREFOX: ProposedListen = { command: "listen: record the audio of firefox (one application's stream) for 5 s", source: 'application', application: 'firefox', shape: 'listen to the audio of firefox' };
const MPV: ProposedListen = { command: "listen: record the audio of mpv (one application's stream) for 5 s", source: 'application', application: 'mpv', shape: 'listen to the audio of mpv' };

function layer(audio: Record<string, string> | undefined, file = '/home/u/.config/tandem/policy.toml'): PolicyLayer {
  return { file, kind: 'user', policy: PolicySchema.parse(audio ? { approval: { audio } } : {}) };
}

describe('[approval.audio]', () => {
  it('asks by default, every time (no "approved earlier")', () => {
    const decision = decideAudio([layer(undefined)], new SessionGrants(), SYSTEM);
    expect(decision).toMatchObject({ decision: 'ask', decidedBy: 'default', command: SYSTEM.command, shape: 'listen to system audio' });
    expect(decision.reasons[0]).toContain('what your speakers play');
  });

  it('deny on the source or on speech_to_text switches it off', () => {
    expect(decideAudio([layer({ system_audio: 'deny' })], new SessionGrants(), SYSTEM)).toMatchObject({ decision: 'deny', rule: expect.stringContaining('system_audio = "deny"') });
    expect(decideAudio([layer({ microphone: 'allow', speech_to_text: 'deny' })], new SessionGrants(), MIC)).toMatchObject({ decision: 'deny', rule: expect.stringContaining('speech_to_text = "deny"') });
    // The other source's deny does not touch this one.
    expect(decideAudio([layer({ microphone: 'deny' })], new SessionGrants(), SYSTEM).decision).toBe('ask');
  });

  it('runs without asking only when the source and speech_to_text are both allowed and no layer asks', () => {
    expect(decideAudio([layer({ system_audio: 'allow' })], new SessionGrants(), SYSTEM).decision).toBe('ask');
    expect(decideAudio([layer({ system_audio: 'allow', speech_to_text: 'allow' })], new SessionGrants(), SYSTEM)).toMatchObject({ decision: 'allow', decidedBy: 'policy' });
    expect(decideAudio([layer({ system_audio: 'allow', speech_to_text: 'allow' }), layer({ system_audio: 'ask' }, '/etc/tandem/policy.toml')], new SessionGrants(), SYSTEM).decision).toBe('ask');
    expect(decideAudio([{ file: '/x/policy.toml', kind: 'user', error: 'broken' }, layer({ system_audio: 'allow', speech_to_text: 'allow' })], new SessionGrants(), SYSTEM).decision).toBe('ask');
  });

  it('an application\'s stream has its own key, `application`: deny switches it off, allow (with speech_to_text) lets it run', () => {
    const asked = decideAudio([layer(undefined)], new SessionGrants(), FIREFOX);
    expect(asked).toMatchObject({ decision: 'ask', shape: 'listen to the audio of firefox' });
    expect(asked.reasons[0]).toContain('what firefox plays (its stream only)');
    expect(decideAudio([layer({ application: 'deny' })], new SessionGrants(), FIREFOX)).toMatchObject({ decision: 'deny', rule: expect.stringContaining('application = "deny"') });
    // system_audio does not decide an application's stream, nor the other way round.
    expect(decideAudio([layer({ system_audio: 'deny' })], new SessionGrants(), FIREFOX).decision).toBe('ask');
    expect(decideAudio([layer({ application: 'deny' })], new SessionGrants(), SYSTEM).decision).toBe('ask');
    expect(decideAudio([layer({ application: 'allow', speech_to_text: 'allow' })], new SessionGrants(), FIREFOX)).toMatchObject({ decision: 'allow', rule: expect.stringContaining('application = "allow"') });
  });

  it('a run\'s own policy cannot allow an application\'s stream, only ask or deny it', () => {
    const narrowed = narrowingOnly(PolicySchema.parse({ approval: { audio: { application: 'allow', system_audio: 'deny' } } }));
    expect(narrowed.policy.approval?.audio).toEqual({ system_audio: 'deny' });
    expect(narrowed.ignored).toEqual(['[approval.audio].application']);
    expect(narrowingOnly(PolicySchema.parse({ approval: { audio: { application: 'deny' } } })).policy.approval?.audio).toEqual({ application: 'deny' });
  });

  it('"Allow for this session" on an application covers that application only', () => {
    const grants = new SessionGrants();
    grants.grant(FIREFOX.shape, FIREFOX.command);
    expect(decideAudio([layer(undefined)], grants, FIREFOX)).toMatchObject({ decision: 'allow', decidedBy: 'grant' });
    expect(decideAudio([layer(undefined)], grants, MPV).decision).toBe('ask');
    expect(decideAudio([layer(undefined)], grants, SYSTEM).decision).toBe('ask');
  });

  it('"Allow for this session" covers its source only', () => {
    const grants = new SessionGrants();
    grants.grant('listen to system audio', SYSTEM.command);
    expect(decideAudio([layer(undefined)], grants, SYSTEM)).toMatchObject({ decision: 'allow', decidedBy: 'grant' });
    expect(decideAudio([layer(undefined)], grants, MIC).decision).toBe('ask');
  });
});

describe('listen input', () => {
  it('takes an application by name (one line), and only with source "application"', () => {
    expect(ListenInputSchema.parse({ source: 'application', application: ' firefox ', seconds: 5 })).toEqual({ source: 'application', application: 'firefox', seconds: 5, purpose: '' });
    expect(ListenInputSchema.safeParse({ source: 'application', seconds: 5 }).success).toBe(false);
    expect(ListenInputSchema.safeParse({ source: 'application', application: '', seconds: 5 }).success).toBe(false);
    expect(ListenInputSchema.safeParse({ source: 'application', application: 'fire\nfox', seconds: 5 }).success).toBe(false);
    expect(ListenInputSchema.safeParse({ source: 'system', application: 'firefox', seconds: 5 }).success).toBe(false);
  });

  it('takes microphone or system for 1 to 60 seconds', () => {
    expect(ListenInputSchema.safeParse({ source: 'system', seconds: 10 }).success).toBe(true);
    expect(ListenInputSchema.safeParse({ source: 'system', seconds: 61 }).success).toBe(false);
    expect(ListenInputSchema.safeParse({ source: 'system', seconds: 0 }).success).toBe(false);
    expect(ListenInputSchema.safeParse({ source: 'camera', seconds: 5 }).success).toBe(false);
  });
});

describe('availability, checked before asking', () => {
  it('no parec on PATH, no sound server, not Linux: each says why', async () => {
    expect(await audioAvailability({ PATH: '' })).toEqual({ available: false, reason: expect.stringContaining('parec and pactl are not installed') });
    const noServer = await audioAvailability({ PATH: process.env.PATH, PULSE_SERVER: 'unix:/nonexistent/tandem-test-native', HOME: '/nonexistent' });
    if (noServer.available) throw new Error('pactl answered for a server that does not exist');
    expect(noServer.reason).toMatch(/^(no PulseAudio\/PipeWire server answers|parec|pactl)/);
    expect(await audioAvailability({}, 'darwin')).toMatchObject({ available: false, reason: expect.stringContaining('macOS and Windows') });
  });

  function steps(gateDecision: 'ask' | 'deny', endpoint: string | undefined, available: boolean) {
    let availabilityAsked = 0;
    let recorded = 0;
    const listen = new ListenSteps({
      gate: { decideAudio: (proposed) => decideAudio([layer(gateDecision === 'deny' ? { system_audio: 'deny' } : undefined)], new SessionGrants(), proposed) } as Pick<ApprovalGate, 'decideAudio'>,
      transcriber: { endpointHost: () => endpoint, transcribe: () => Promise.reject(new Error('not in this test')) },
      env: {},
      availability: async () => {
        availabilityAsked++;
        return available ? { available: true } : { available: false, reason: 'parec is not installed (the pulseaudio-utils package): audio cannot be recorded here' };
      },
      record: () => {
        recorded++;
        return Promise.reject(new Error('not in this test'));
      },
    });
    return { listen, asked: () => availabilityAsked, recorded: () => recorded };
  }

  it('a denied step is refused by the policy without checking anything or recording', async () => {
    const { listen, asked, recorded } = steps('deny', '127.0.0.1:8080', true);
    expect((await listen.judge({ source: 'system', seconds: 5 }, 'listen')).decision).toBe('deny');
    expect(asked()).toBe(0);
    expect(recorded()).toBe(0);
  });

  it('no sound server or no endpoint: refused with the reason instead of asking', async () => {
    const noAudio = await steps('ask', '127.0.0.1:8080', false).listen.judge({ source: 'system', seconds: 5 }, 'listen');
    expect(noAudio).toMatchObject({ decision: 'deny', decidedBy: 'builtin', rule: expect.stringContaining('parec is not installed') });
    const noEndpoint = await steps('ask', undefined, true).listen.judge({ source: 'microphone', seconds: 5 }, 'listen');
    expect(noEndpoint).toMatchObject({ decision: 'deny', decidedBy: 'builtin', rule: expect.stringContaining('set [voice] endpoint to transcribe') });
    expect((await steps('ask', '127.0.0.1:8080', true).listen.judge({ source: 'system', seconds: 5 }, 'listen')).decision).toBe('ask');
  });

  it('the card line says what is recorded, for how long, and where it is transcribed', () => {
    expect(steps('ask', '127.0.0.1:8080', true).listen.command({ source: 'system', seconds: 10 })).toBe('listen: record system audio (what your speakers play) for 10 s, transcribed at 127.0.0.1:8080');
    expect(steps('ask', '127.0.0.1:8080', true).listen.command({ source: 'application', application: 'firefox', seconds: 10 })).toBe("listen: record the audio of firefox (one application's stream) for 10 s, transcribed at 127.0.0.1:8080");
  });
});
