import { describe, expect, it } from 'vitest';
import { isTerminalWindow } from '../../src/main/agent/vision/terminalWindows';

// Keys typed into a terminal run commands the approval gate never sees; in browser mode
// Tandem's own terminal is a browser window, known only by the title the page gives it.
describe('terminal windows', () => {
  it('knows terminal emulators by class or instance, case aside', () => {
    expect(isTerminalWindow({ application: 'XTerm', instance: 'xterm', title: 'cat-target' })).toBe(true);
    expect(isTerminalWindow({ application: 'kitty', instance: 'kitty', title: '~' })).toBe(true);
    expect(isTerminalWindow({ application: 'Gnome-terminal', instance: 'gnome-terminal-server', title: 'user@host: ~' })).toBe(true);
  });

  it("knows a browser window showing Tandem's page by its title", () => {
    expect(isTerminalWindow({ application: 'Chromium', instance: 'chromium', title: 'bash — Tandem - Chromium' })).toBe(true);
    expect(isTerminalWindow({ application: 'firefox', instance: 'Navigator', title: 'Tandem — Mozilla Firefox' })).toBe(true);
    expect(isTerminalWindow({ application: 'Chromium', instance: 'chromium', title: 'Tandem' })).toBe(true);
  });

  it('leaves other windows alone; a page titled "Tandem …" counts (a false match blocks typing there, a miss would type into a terminal)', () => {
    expect(isTerminalWindow({ application: 'Chromium', instance: 'chromium', title: 'Tandem bicycles for sale - Chromium' })).toBe(true);
    expect(isTerminalWindow({ application: 'Chromium', instance: 'chromium', title: 'TandemRepeat analysis - Chromium' })).toBe(false);
    expect(isTerminalWindow({ application: 'Xmessage', instance: 'xmessage', title: 'Build failed' })).toBe(false);
    expect(isTerminalWindow({ application: 'Code', instance: 'code', title: 'app.ts — project' })).toBe(false);
  });
});
