import { useState, type ReactNode } from 'react';
import { writeClipboard } from '../platform/clipboard';

/**
 * A link in an answer never navigates the window: clicking copies its address. The model's
 * output is untrusted, and the app has nowhere to go anyway.
 */
export function MarkdownLink({ href, children }: { href: string | undefined; children: ReactNode }) {
  const [copied, setCopied] = useState(false);
  if (!href) return <span className="ai-link ai-link--empty">{children}</span>;
  return (
    <button
      type="button"
      className="ai-link"
      data-href={href}
      title={`${href}\nClick to copy the address`}
      onClick={() => void writeClipboard(href).then(setCopied)}
    >
      {children}
      {copied && <span className="ai-link__copied"> (address copied)</span>}
    </button>
  );
}
