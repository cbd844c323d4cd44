import { useEffect, useState } from 'react';
import type { AutoView } from '../../../shared/companion';
import { useConversationStore } from '../ai/conversationStore';

/** The `!auto` run working now, as the engine reports it with the conversation. */
export function useAutoRun(): AutoView | undefined {
  return useConversationStore((state) => state.conversation?.auto);
}

/** Milliseconds since `since`, re-rendering once a second while `since` is set. */
export function useElapsed(since: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === undefined) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  return since === undefined ? 0 : Math.max(0, now - since);
}

/** 0:42, 12:05, 1:02:09. */
export function formatElapsed(ms: number): string {
  const total = Math.floor(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** "step 3, 1:24" — the run's progress for its banner and the status bar: the step it is on, not the last one proposed. */
export function autoProgress(auto: AutoView, elapsedMs: number): string {
  return `step ${auto.current}${auto.steps >= auto.maxSteps ? ` of ${auto.maxSteps}` : ''}, ${formatElapsed(elapsedMs)}`;
}
