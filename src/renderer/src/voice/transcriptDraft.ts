/**
 * The AI input once a transcript lands in it. Alone, spoken at a terminal pane, it is a `# `
 * line (an instruction for that pane); after text already typed, it is added with a space, so
 * nothing typed is lost. Words never become a `! cmd` or an `!auto` task: a transcript that
 * would start the input with "!" is escaped into a message.
 */
export function transcriptDraft(before: string, spoken: string, towardsPane: boolean): string {
  if (before.trim() !== '') return `${before.replace(/\s+$/, '')} ${spoken}`;
  return towardsPane ? `# ${spoken}` : spoken.replace(/^!/, '\\!');
}
