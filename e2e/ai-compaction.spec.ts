import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { useAgentTandem, sendFromPanel } from './support/aiPanel';
import { makeHomeWithConfig } from './support/tandemServer';

// A long conversation in the real panel: once the history passes `[ai] compact_at_percent`,
// the panel marks where the model's summary ends and the turns it gets whole begin, every
// message stays on screen, and "What was sent" shows the summary the model got.

const ai = useAgentTandem();

const TURNS = 10;

function homeWithNotes(): string {
  // 2% of claude-sonnet-5-5's 200,000-token window: 4,000 tokens.
  const home = makeHomeWithConfig('[ai]\ncompact_at_percent = 2\n');
  const lines = Array.from({ length: 60 }, (_, index) => `note ${index + 1}: the asset copy step is slow`);
  writeFileSync(join(home, 'notes.txt'), `${lines.join('\n')}\n`);
  return home;
}

test('older turns are compacted: a marker in the panel, every message kept, the summary in What was sent', async ({ page }) => {
  const { panel } = await ai.start(page, homeWithNotes());
  const answers = panel.locator('[data-testid="ai-message"][data-role="assistant"]');
  for (let turn = 1; turn <= TURNS; turn++) {
    ai.model.script({ parts: [{ toolUse: { id: `read${turn}`, name: 'read_file', input: { path: 'notes.txt' } } }] }, { parts: [{ text: `Answer ${turn}: the copy step is slow.` }] });
    await sendFromPanel(page, `question ${turn}: what do the notes say?`);
    await expect(answers.last()).toContainText(`Answer ${turn}:`);
  }

  const marker = panel.getByTestId('compacted-history');
  await expect(marker).toBeVisible();
  await expect(marker).toContainText(/Earlier turns compacted: \d+ turns → [\d.]+k? tokens \(from [\d.]+k\)/);
  // The marker sits right before a question the model still gets whole; the first question is still on screen.
  const next = marker.locator('xpath=following-sibling::*[1]');
  await expect(next).toHaveAttribute('data-role', 'user');
  await expect(panel.locator('[data-testid="ai-message"][data-role="user"]')).toHaveCount(TURNS);
  await expect(panel.locator('[data-testid="ai-message"][data-role="user"]').first()).toContainText('question 1: what do the notes say?');

  await answers.last().getByTestId('what-was-sent').click();
  const dialog = page.getByTestId('sent-payload');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('compacted by Tandem to save context');
  await expect(dialog).toContainText('The user: "question 1: what do the notes say?"');
  await expect(dialog).toContainText(`question ${TURNS}: what do the notes say?`);
});
