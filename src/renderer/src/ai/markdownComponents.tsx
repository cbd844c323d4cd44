import { Children, type ReactNode } from 'react';
import type { Components, ExtraProps } from 'react-markdown';
import { CodeBlock } from './CodeBlock';
import { MarkdownLink } from './MarkdownLink';

/** The parts of a hast node read here; react-markdown passes each element's node. */
interface HastLike {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  children?: HastLike[];
}

function textOf(node: HastLike): string {
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(textOf).join('');
}

function languageOf(code: HastLike | undefined): string | undefined {
  const classes = code?.properties?.className;
  if (!Array.isArray(classes)) return undefined;
  const language = classes.map(String).find((name) => name.startsWith('language-'));
  return language?.slice('language-'.length) || undefined;
}

function FencedCode({ node }: ExtraProps) {
  const pre = node as unknown as HastLike | undefined;
  const code = pre?.children?.find((child) => child.type === 'element' && child.tagName === 'code');
  return <CodeBlock code={code ? textOf(code) : pre ? textOf(pre) : ''} language={languageOf(code)} />;
}

/**
 * A table cell's text, each word unbreakable: browsers also break after `-` and `/`, which
 * cuts file names and paths ("package-/lock.json"). The cell still wraps between words, and
 * a table wider than the panel scrolls.
 */
function wholeWords(children: ReactNode): ReactNode {
  return Children.map(children, (child) =>
    typeof child === 'string'
      ? child.split(/(\s+)/).map((part, index) => (/[-/]/.test(part) ? <span key={index} className="ai-table__word">{part}</span> : part))
      : child,
  );
}

/**
 * How answers render: code blocks get Copy / Insert, links copy instead of navigating,
 * images are named but not fetched, wide tables scroll. Raw HTML stays text (react-markdown's
 * default, no rehype-raw).
 */
export const markdownComponents: Components = {
  pre: FencedCode,
  a: ({ href, children }) => <MarkdownLink href={href}>{children}</MarkdownLink>,
  img: ({ alt, src }) => (
    <span className="ai-image" title={typeof src === 'string' ? src : undefined}>
      [image: {alt || (typeof src === 'string' ? src : '')}]
    </span>
  ),
  table: ({ children }) => (
    <div className="ai-table">
      <table>{children}</table>
    </div>
  ),
  td: ({ children, style }) => <td style={style}>{wholeWords(children)}</td>,
  th: ({ children, style }) => <th style={style}>{wholeWords(children)}</th>,
};
