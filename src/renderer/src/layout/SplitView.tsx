import { Fragment, useRef } from 'react';
import type { LayoutNode } from '../../../shared/protocol';
import { PaneView } from '../terminal/PaneView';
import { Divider } from './Divider';
import { normalizedSizes, type NodePath } from './layoutTree';

interface SplitViewProps {
  tabId: string;
  node: LayoutNode;
  path: NodePath;
  visible: boolean;
  focusedPaneId: number;
  showFocus: boolean;
}

/** Renders a layout tree: panes at the leaves, flex rows/columns with dividers in between. */
export function SplitView({ tabId, node, path, visible, focusedPaneId, showFocus }: SplitViewProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  if (node.kind === 'pane') {
    return (
      <PaneView
        paneId={node.paneId}
        visible={visible}
        focused={node.paneId === focusedPaneId}
        showFocus={showFocus}
      />
    );
  }
  const sizes = normalizedSizes(node.sizes, node.children.length);
  return (
    <div ref={containerRef} className={`split split--${node.direction}`} data-testid="split" data-direction={node.direction}>
      {node.children.map((child, index) => (
        <Fragment key={child.kind === 'pane' ? `pane-${child.paneId}` : `split-${index}`}>
          {index > 0 && (
            <Divider tabId={tabId} path={path} index={index - 1} direction={node.direction} sizes={sizes} containerRef={containerRef} />
          )}
          <div className="split__child" style={{ flex: `${sizes[index] ?? 1} 1 0px` }}>
            <SplitView
              tabId={tabId}
              node={child}
              path={[...path, index]}
              visible={visible}
              focusedPaneId={focusedPaneId}
              showFocus={showFocus}
            />
          </div>
        </Fragment>
      ))}
    </div>
  );
}
