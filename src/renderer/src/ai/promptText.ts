/**
 * Code from an answer, made safe to put on a prompt: trailing line breaks go (a final
 * newline would run it), as do Windows line endings.
 */
export function textForPrompt(code: string): string {
  return code.replace(/\r\n?/g, '\n').replace(/\s+$/, '');
}
