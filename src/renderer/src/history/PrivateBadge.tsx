import { usePrivatePanes } from './privateMode';

/** "Private" in the pane's corner while nothing of it is recorded in the block history. */
export function PrivateBadge({ paneId }: { paneId: number }) {
  const on = usePrivatePanes((state) => state.panes[paneId] === true);
  if (!on) return null;
  return (
    <div className="pane-private-badge" data-testid="pane-private" title="Private mode: nothing of this pane is recorded in the block history">
      Private
    </div>
  );
}
