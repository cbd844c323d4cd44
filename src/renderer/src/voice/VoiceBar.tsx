import { useEffect, useState } from 'react';
import { elapsedText } from './voiceWords';
import { useVoiceStore } from './voiceStore';

/** Full scale of the meter: loud speech into a laptop microphone reads about 0.2–0.3 RMS. */
const METER_FULL = 0.25;

/**
 * Above the AI input: the recording indicator (red dot, elapsed time, level meter) while the
 * microphone is on, "Transcribing…", "Speaking" while an answer is read aloud, a transcript's
 * Enter/Esc hint, and what went wrong or how to set voice up.
 */
export function VoiceBar() {
  const phase = useVoiceStore((state) => state.phase);
  const notice = useVoiceStore((state) => state.notice);
  const reviewing = useVoiceStore((state) => state.review !== undefined);
  return (
    <>
      {phase === 'recording' && <RecordingIndicator />}
      {phase === 'starting' && <div className="voice-bar" data-testid="voice-status">Opening the microphone…</div>}
      {phase === 'transcribing' && <div className="voice-bar" data-testid="voice-status">Transcribing…</div>}
      {phase === 'speaking' && (
        <div className="voice-bar" data-testid="voice-status">
          Speaking the answer — Esc stops
        </div>
      )}
      {phase === 'idle' && reviewing && <ReviewHint />}
      {notice && (
        <div className={`voice-bar voice-bar--${notice.kind}`} data-testid="voice-notice" data-kind={notice.kind} role={notice.kind === 'error' ? 'alert' : 'status'}>
          <span className="voice-bar__text">{notice.text}</span>
          <button type="button" className="voice-bar__dismiss" aria-label="Dismiss" onClick={() => useVoiceStore.getState().setNotice(undefined)}>
            ×
          </button>
        </div>
      )}
    </>
  );
}

function RecordingIndicator() {
  const startedAt = useVoiceStore((state) => state.startedAt);
  const level = useVoiceStore((state) => state.level);
  const [elapsedMs, setElapsedMs] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setElapsedMs(startedAt === undefined ? 0 : Date.now() - startedAt), 250);
    return () => window.clearInterval(timer);
  }, [startedAt]);
  const percent = Math.round(Math.min(1, level / METER_FULL) * 100);
  return (
    <div className="voice-bar voice-bar--recording" data-testid="voice-recording" role="status" aria-label="Recording">
      <span className="voice-bar__dot" aria-hidden="true" />
      <span className="voice-bar__rec">REC</span>
      <span className="voice-bar__time" data-testid="voice-elapsed">
        {elapsedText(elapsedMs)}
      </span>
      <span className="voice-bar__meter" aria-hidden="true">
        <span className="voice-bar__level" data-testid="voice-level" data-level={level.toFixed(3)} style={{ width: `${percent}%` }} />
      </span>
      <span className="voice-bar__hint">Esc cancels</span>
    </div>
  );
}

function ReviewHint() {
  return (
    <div className="voice-bar" data-testid="voice-review">
      Transcript — Enter sends, Esc discards
    </div>
  );
}
