import { useState } from 'react';
import { useScreenshotImage } from './screenshotImages';

interface ScreenshotProps {
  /** The image itself (What was sent has it in the payload) … */
  src?: string;
  /** … or the id of a screenshot step's image, fetched from the engine once. */
  id?: string;
  width?: number;
  height?: number;
  description: string;
}

/**
 * An image exactly as it was sent to the model: a thumbnail that opens at full size on click
 * (click again or Esc to close).
 */
export function ScreenshotThumbnail({ src: given, id, width, height, description }: ScreenshotProps) {
  const [enlarged, setEnlarged] = useState(false);
  const loaded = useScreenshotImage(given ? undefined : id);
  const src = given ?? loaded;
  return (
    <button
      type="button"
      className={`screenshot${enlarged ? ' screenshot--enlarged' : ''}`}
      data-testid="screenshot"
      data-width={width}
      data-height={height}
      aria-expanded={enlarged}
      title={enlarged ? 'Click to make it small again' : `${description} (click to enlarge)`}
      onClick={() => setEnlarged((value) => !value)}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && enlarged) {
          event.stopPropagation();
          setEnlarged(false);
        }
      }}
    >
      {src ? <img className="screenshot__image" src={src} alt={description} width={width} height={height} /> : <span className="screenshot__loading">loading the screenshot…</span>}
    </button>
  );
}
