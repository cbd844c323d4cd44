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
};
