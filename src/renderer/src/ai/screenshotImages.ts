import { useEffect, useState } from 'react';
import { fetchScreenshot } from './agentRequests';
import { useConversationStore } from './conversationStore';

/**
 * Screenshot steps' images (data: URLs, about 1–2 MB each) fetched from the engine by id,
 * kept while their conversation is shown: a step's card is redrawn often, its image does not
 * change. A new conversation (from this window or any other) empties it, as the engine does.
 */
const fetched = new Map<string, string>();
let conversationId = useConversationStore.getState().conversation?.id;

useConversationStore.subscribe(({ conversation }) => {
  if (conversation?.id === conversationId) return;
  conversationId = conversation?.id;
  fetched.clear();
});

/** The image, when it was fetched already. */
export function keptScreenshot(id: string): string | undefined {
  return fetched.get(id);
}

/** The image, fetched once; undefined when the engine could not give it (the reason is shown). */
export async function loadScreenshot(id: string): Promise<string | undefined> {
  const kept = fetched.get(id);
  if (kept) return kept;
  const fetchedFor = conversationId;
  const src = await fetchScreenshot(id);
  // An image that arrives after its conversation was replaced is not kept.
  if (src && fetchedFor === conversationId) fetched.set(id, src);
  return src;
}

/** A screenshot step's image for a component: kept ones at once, others once fetched. */
export function useScreenshotImage(id: string | undefined): string | undefined {
  const [loaded, setLoaded] = useState<{ id: string; src: string } | undefined>();
  const kept = id ? keptScreenshot(id) : undefined;
  useEffect(() => {
    if (!id || keptScreenshot(id)) return;
    let current = true;
    void loadScreenshot(id).then((src) => {
      if (src && current) setLoaded({ id, src });
    });
    return () => {
      current = false;
    };
  }, [id]);
  return kept ?? (loaded && loaded.id === id ? loaded.src : undefined);
}
