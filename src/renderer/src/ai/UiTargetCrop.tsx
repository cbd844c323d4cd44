import type { UiStepView } from '../../../shared/screenSteps';
import { useScreenshotImage } from './screenshotImages';

/** The crop's size on the card, in CSS pixels. */
const CROP_WIDTH = 280;
const CROP_HEIGHT = 160;
/** Room kept around the marked points. */
const MARGIN = 24;

type Target = NonNullable<UiStepView['target']>;

/**
 * A crop of the screenshot the model pointed into, around the point a UI action lands on
 * (both ends of a drag), with the point marked: what will be clicked, before it is.
 */
export function UiTargetCrop({ target }: { target: Target }) {
  const src = useScreenshotImage(target.screenshotId);
  const points = target.to ? [target.at, target.to] : [target.at];
  const left = Math.min(...points.map((point) => point.x));
  const right = Math.max(...points.map((point) => point.x));
  const top = Math.min(...points.map((point) => point.y));
  const bottom = Math.max(...points.map((point) => point.y));
  // Shrunk only when a drag's ends do not fit at the image's own size.
  const scale = Math.min(1, (CROP_WIDTH - 2 * MARGIN) / Math.max(1, right - left), (CROP_HEIGHT - 2 * MARGIN) / Math.max(1, bottom - top));
  const offsetX = clampOffset(CROP_WIDTH / 2 - ((left + right) / 2) * scale, target.width * scale, CROP_WIDTH);
  const offsetY = clampOffset(CROP_HEIGHT / 2 - ((top + bottom) / 2) * scale, target.height * scale, CROP_HEIGHT);
  return (
    <div
      className="ui-target-crop"
      data-testid="ui-target-crop"
      data-x={target.at.x}
      data-y={target.at.y}
      style={{ width: CROP_WIDTH, height: CROP_HEIGHT }}
      title={`Where it lands on the screenshot the model saw (${target.width}×${target.height})`}
    >
      {src ? (
        <img
          className="ui-target-crop__image"
          src={src}
          alt="the screenshot the action points into"
          style={{ left: offsetX, top: offsetY, width: target.width * scale, height: target.height * scale }}
        />
      ) : (
        <span className="ui-target-crop__loading">loading the screenshot…</span>
      )}
      {points.map((point, index) => (
        <span
          key={index}
          className={`ui-target-crop__marker${index === 1 ? ' ui-target-crop__marker--end' : ''}`}
          data-testid="ui-target-marker"
          style={{ left: offsetX + point.x * scale, top: offsetY + point.y * scale }}
        />
      ))}
    </div>
  );
}

/** Keeps the image covering the crop where it can (a point near an edge sits off-centre). */
function clampOffset(offset: number, imageSize: number, cropSize: number): number {
  if (imageSize <= cropSize) return (cropSize - imageSize) / 2;
  return Math.min(0, Math.max(cropSize - imageSize, offset));
}
