import type { UiStepView } from '../../../shared/screenSteps';
import { useScreenshotImage } from './screenshotImages';
import { CROP_HEIGHT, CROP_WIDTH, cropView } from './uiCropView';

type Target = NonNullable<UiStepView['target']>;

/**
 * A crop of the screenshot the model pointed into, around the point a UI action lands on
 * (both ends of a drag), with the point marked and the window it reaches outlined: what will
 * be clicked, before it is.
 */
export function UiTargetCrop({ target }: { target: Target }) {
  const src = useScreenshotImage(target.screenshotId);
  const points = target.to ? [target.at, target.to] : [target.at];
  const { scale, offsetX, offsetY, outline } = cropView(target);
  return (
    <div
      className="ui-target-crop"
      data-testid="ui-target-crop"
      data-x={target.at.x}
      data-y={target.at.y}
      data-scale={scale.toFixed(3)}
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
      {outline && <span className="ui-target-crop__window" data-testid="ui-target-window" style={outline} />}
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
