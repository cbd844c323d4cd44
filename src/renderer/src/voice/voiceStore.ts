import { create } from 'zustand';

/**
 * Where push-to-talk is: `idle`; `starting` (asking for the microphone); `recording`;
 * `transcribing` (the engine has the clip); `speaking` (an answer is read aloud).
 */
export type VoicePhase = 'idle' | 'starting' | 'recording' | 'transcribing' | 'speaking';

/** A transcript waiting in the AI input: Esc puts back what was there before it. */
export interface VoiceReview {
  before: string;
  after: string;
}

interface VoiceState {
  phase: VoicePhase;
  /** When the recording began (Date.now()), for the elapsed time. */
  startedAt: number | undefined;
  /** The microphone's level, 0 (silence) … about 0.3 (loud speech). */
  level: number;
  /** What went wrong, or how to set voice up, shown in the AI input until dismissed. */
  notice: { text: string; kind: 'error' | 'setup' | 'info' } | undefined;
  review: VoiceReview | undefined;
  setPhase(phase: VoicePhase): void;
  setLevel(level: number): void;
  setNotice(notice: VoiceState['notice']): void;
  setReview(review: VoiceReview | undefined): void;
}

export const useVoiceStore = create<VoiceState>()((set) => ({
  phase: 'idle',
  startedAt: undefined,
  level: 0,
  notice: undefined,
  review: undefined,
  setPhase: (phase) => set(phase === 'recording' ? { phase, startedAt: Date.now(), level: 0 } : { phase, startedAt: undefined, level: 0 }),
  setLevel: (level) => set({ level }),
  setNotice: (notice) => set({ notice }),
  setReview: (review) => set({ review }),
}));
