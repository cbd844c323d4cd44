import { useState } from 'react';

/**
 * An image exactly as it was sent to the model: a thumbnail that opens at full size on click
 * (click again or Esc to close).
 */
export function ScreenshotThumbnail({ src, width, height, description }: { src: string; width?: number; height?: number; description: string }) {
  const [enlarged, setEnlarged] = useState(false);
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
      <img className="screenshot__image" src={src} alt={description} width={width} height={height} />
    </button>
  );
}
