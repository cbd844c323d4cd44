import { memo } from 'react';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { markdownComponents } from './markdownComponents';
import { splitMarkdownChunks } from './markdownChunks';

const remarkPlugins = [remarkGfm];

const MarkdownPiece = memo(function MarkdownPiece({ text }: { text: string }) {
  return (
    <Markdown remarkPlugins={remarkPlugins} components={markdownComponents}>
      {text}
    </Markdown>
  );
});

/**
 * An answer as Markdown, rendered in pieces split at blank lines. Pieces are memoised, so
 * while an answer streams each frame re-parses only its growing last piece, and the end of
 * the stream re-parses nothing: a long answer never stalls the terminal beside it.
 */
export const AssistantText = memo(function AssistantText({ text }: { text: string }) {
  return (
    <div className="ai-markdown">
      {splitMarkdownChunks(text).map((chunk, index) => (
        <MarkdownPiece key={index} text={chunk} />
      ))}
    </div>
  );
});
