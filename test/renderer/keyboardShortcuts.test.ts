import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { importRendererModule } from './support/rendererModule';

type ChordsModule = typeof import('../../src/renderer/src/actions/chords');
type KeybindingsModule = typeof import('../../src/renderer/src/actions/keybindings');

/** Loads the shortcut modules as a browser on `platform` would (isMac is decided at load). */
async function load(platform: string) {
  vi.resetModules();
  vi.stubGlobal('window', { ...globalThis, tandemElectron: undefined });
  vi.stubGlobal('navigator', { platform });
  const chords = await importRendererModule<ChordsModule>('actions/chords.ts');
  const keybindings = await importRendererModule<KeybindingsModule>('actions/keybindings.ts');
  return { ...chords, ...keybindings };
}

/** The fields of a KeyboardEvent that chords read (a real one cannot be built without a DOM). */
function key(init: { key: string; code: string; ctrl?: boolean; shift?: boolean; alt?: boolean; meta?: boolean }): KeyboardEvent {
  return {
    key: init.key,
    code: init.code,
    ctrlKey: init.ctrl ?? false,
    shiftKey: init.shift ?? false,
    altKey: init.alt ?? false,
    metaKey: init.meta ?? false,
  } as KeyboardEvent;
}

afterEach(() => vi.unstubAllGlobals());

describe('chords', () => {
  it('normalise to one spelling whatever the order and case', async () => {
    const { normalizeChord } = await load('Linux x86_64');
    expect(normalizeChord('shift+ctrl+t')).toBe('Ctrl+Shift+T');
    expect(normalizeChord('Cmd+Shift+P')).toBe('Shift+Cmd+P');
    expect(normalizeChord('meta+alt+ArrowLeft')).toBe('Alt+Cmd+ArrowLeft');
    expect(normalizeChord('Control+Option+x')).toBe('Ctrl+Alt+X');
    expect(normalizeChord('Ctrl++')).toBe('Ctrl+=');
  });

  it('read keyboard events by character, or by position for shifted symbols and other layouts', async () => {
    const { chordFromEvent } = await load('Linux x86_64');
    expect(chordFromEvent(key({ key: 'T', code: 'KeyT', ctrl: true, shift: true }))).toBe('Ctrl+Shift+T');
    // Shift+= types "+", still the "=" key.
    expect(chordFromEvent(key({ key: '+', code: 'Equal', ctrl: true, shift: true }))).toBe('Ctrl+Shift+=');
    expect(chordFromEvent(key({ key: '=', code: 'Equal', ctrl: true }))).toBe('Ctrl+=');
    expect(chordFromEvent(key({ key: '-', code: 'NumpadSubtract', ctrl: true }))).toBe('Ctrl+-');
    expect(chordFromEvent(key({ key: ')', code: 'Digit0', ctrl: true, shift: true }))).toBe('Ctrl+Shift+0');
    // A Cyrillic layout: the T key types "е"; the shortcut still works by position.
    expect(chordFromEvent(key({ key: 'Е', code: 'KeyT', ctrl: true, shift: true }))).toBe('Ctrl+Shift+T');
    expect(chordFromEvent(key({ key: 'ArrowUp', code: 'ArrowUp', ctrl: true, shift: true }))).toBe('Ctrl+Shift+ArrowUp');
    // Modifier keys alone are not chords.
    expect(chordFromEvent(key({ key: 'Control', code: 'ControlLeft', ctrl: true }))).toBeUndefined();
    expect(chordFromEvent(key({ key: 'Shift', code: 'ShiftLeft', shift: true }))).toBeUndefined();
  });

  it('are labelled with the platform conventions', async () => {
    const linux = await load('Linux x86_64');
    expect(linux.chordLabel('Ctrl+Shift+ArrowUp')).toBe('Ctrl+Shift+↑');
    const mac = await load('MacIntel');
    expect(mac.chordLabel('Shift+Cmd+P')).toBe('⇧⌘P');
  });
});

describe('default key bindings', () => {
  it('on Linux and Windows use Ctrl+Shift, leaving plain Ctrl keys to the shell', async () => {
    const { actionForChord, chordFromEvent } = await load('Linux x86_64');
    const bound = (init: Parameters<typeof key>[0]) => actionForChord(chordFromEvent(key(init))!);
    expect(bound({ key: 'C', code: 'KeyC', ctrl: true, shift: true })).toBe('terminal.copy');
    expect(bound({ key: 'V', code: 'KeyV', ctrl: true, shift: true })).toBe('terminal.paste');
    expect(bound({ key: 'T', code: 'KeyT', ctrl: true, shift: true })).toBe('tab.new');
    expect(bound({ key: 'W', code: 'KeyW', ctrl: true, shift: true })).toBe('pane.close');
    expect(bound({ key: 'D', code: 'KeyD', ctrl: true, shift: true })).toBe('pane.splitRight');
    expect(bound({ key: 'E', code: 'KeyE', ctrl: true, shift: true })).toBe('pane.splitDown');
    expect(bound({ key: 'F', code: 'KeyF', ctrl: true, shift: true })).toBe('terminal.find');
    expect(bound({ key: 'P', code: 'KeyP', ctrl: true, shift: true })).toBe('palette.show');
    expect(bound({ key: 'ArrowUp', code: 'ArrowUp', ctrl: true, shift: true })).toBe('block.previous');
    expect(bound({ key: 'ArrowDown', code: 'ArrowDown', ctrl: true, shift: true })).toBe('block.next');
    expect(bound({ key: 'ArrowLeft', code: 'ArrowLeft', alt: true })).toBe('pane.focusLeft');
    expect(bound({ key: '=', code: 'Equal', ctrl: true })).toBe('view.zoomIn');
    expect(bound({ key: '+', code: 'Equal', ctrl: true, shift: true })).toBe('view.zoomIn');
    expect(bound({ key: '-', code: 'Minus', ctrl: true })).toBe('view.zoomOut');
    expect(bound({ key: '0', code: 'Digit0', ctrl: true })).toBe('view.zoomReset');
    expect(bound({ key: ',', code: 'Comma', ctrl: true })).toBe('settings.open');
    expect(bound({ key: 'Tab', code: 'Tab', ctrl: true })).toBe('tab.next');
    // Ctrl+C, Ctrl+V, Ctrl+D, Ctrl+W, Ctrl+F … belong to the shell and the programs in it.
    for (const letter of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
      expect(bound({ key: letter.toLowerCase(), code: `Key${letter}`, ctrl: true })).toBeUndefined();
    }
    expect(bound({ key: 'ArrowUp', code: 'ArrowUp', ctrl: true })).toBeUndefined();
  });

  it('on macOS use Cmd', async () => {
    const { actionForChord, chordFromEvent, primaryChord } = await load('MacIntel');
    const bound = (init: Parameters<typeof key>[0]) => actionForChord(chordFromEvent(key(init))!);
    expect(bound({ key: 'c', code: 'KeyC', meta: true })).toBe('terminal.copy');
    expect(bound({ key: 'v', code: 'KeyV', meta: true })).toBe('terminal.paste');
    expect(bound({ key: 't', code: 'KeyT', meta: true })).toBe('tab.new');
    expect(bound({ key: 'k', code: 'KeyK', meta: true })).toBe('terminal.clear');
    expect(bound({ key: 'ArrowUp', code: 'ArrowUp', meta: true })).toBe('block.previous');
    // Ctrl keys stay with the shell on macOS too.
    expect(bound({ key: 'c', code: 'KeyC', ctrl: true })).toBeUndefined();
    expect(primaryChord('palette.show')).toBe('Shift+Cmd+P');
  });

  it('Ctrl+Shift+Space (Cmd+Shift+Space on macOS) shows and hides the AI panel', async () => {
    const linux = await load('Linux x86_64');
    expect(linux.actionForChord(linux.chordFromEvent(key({ key: ' ', code: 'Space', ctrl: true, shift: true }))!)).toBe('ai.toggle');
    // Ctrl+Space alone stays with the shell (it types NUL, set-mark in Emacs mode).
    expect(linux.actionForChord(linux.chordFromEvent(key({ key: ' ', code: 'Space', ctrl: true }))!)).toBeUndefined();
    expect(linux.chordLabel(linux.primaryChord('ai.toggle')!)).toBe('Ctrl+Shift+Space');
    const mac = await load('MacIntel');
    expect(mac.actionForChord(mac.chordFromEvent(key({ key: ' ', code: 'Space', meta: true, shift: true }))!)).toBe('ai.toggle');
    expect(mac.chordLabel(mac.primaryChord('ai.toggle')!)).toBe('⇧⌘Space');
  });

  it('Ctrl+Shift+M (Cmd+Shift+M on macOS) is push-to-talk, wherever the focus is; [voice] push_to_talk_key replaces it', async () => {
    const linux = await load('Linux x86_64');
    expect(linux.actionForChord(linux.chordFromEvent(key({ key: 'M', code: 'KeyM', ctrl: true, shift: true }))!)).toBe('voice.pushToTalk');
    expect(linux.actionForChord('Ctrl+Shift+M', { inTextField: true })).toBe('voice.pushToTalk');
    linux.setUserChord('voice.pushToTalk', 'alt+shift+v');
    expect(linux.actionForChord('Alt+Shift+V')).toBe('voice.pushToTalk');
    expect(linux.actionForChord('Ctrl+Shift+M')).toBeUndefined();
    // A chosen chord that another action has by default wins over it.
    linux.setUserChord('voice.pushToTalk', 'Ctrl+Shift+Space');
    expect(linux.actionForChord('Ctrl+Shift+Space')).toBe('voice.pushToTalk');
    linux.setUserChord('voice.pushToTalk', undefined);
    expect(linux.actionForChord('Ctrl+Shift+M')).toBe('voice.pushToTalk');
    expect(linux.actionForChord('Ctrl+Shift+Space')).toBe('ai.toggle');
    const mac = await load('MacIntel');
    expect(mac.actionForChord(mac.chordFromEvent(key({ key: 'm', code: 'KeyM', meta: true, shift: true }))!)).toBe('voice.pushToTalk');
  });

  it('in a text field (the AI input, find, settings) leave its editing chords to it, and run every other one', async () => {
    const linux = await load('Linux x86_64');
    const inField = { inTextField: true };
    // Select to the start / end of the text, not a block jump; paste into the field.
    expect(linux.actionForChord('Ctrl+Shift+ArrowUp', inField)).toBeUndefined();
    expect(linux.actionForChord('Ctrl+Shift+ArrowDown', inField)).toBeUndefined();
    expect(linux.actionForChord('Ctrl+Shift+V', inField)).toBeUndefined();
    expect(linux.actionForChord('Ctrl+Shift+ArrowUp')).toBe('block.previous');
    for (const [chord, action] of [
      ['Ctrl+Shift+T', 'tab.new'],
      ['Ctrl+Shift+W', 'pane.close'],
      ['Ctrl+Shift+C', 'terminal.copy'],
      ['Ctrl+Shift+F', 'terminal.find'],
      ['Ctrl+Shift+P', 'palette.show'],
      ['Ctrl+=', 'view.zoomIn'],
      ['Ctrl+-', 'view.zoomOut'],
      ['Ctrl+0', 'view.zoomReset'],
      ['Ctrl+Tab', 'tab.next'],
      ['Alt+ArrowLeft', 'pane.focusLeft'],
      ['Ctrl+Shift+Space', 'ai.toggle'],
    ]) {
      expect(linux.actionForChord(chord!, inField), chord).toBe(action);
    }
    // Ctrl+W, Ctrl+R … are nobody's in Tandem, in a field or not.
    expect(linux.actionForChord('Ctrl+W', inField)).toBeUndefined();
    expect(linux.actionForChord('Ctrl+R', inField)).toBeUndefined();

    const mac = await load('MacIntel');
    for (const chord of ['Cmd+C', 'Cmd+V', 'Cmd+A', 'Cmd+ArrowUp', 'Cmd+ArrowDown']) {
      expect(mac.actionForChord(mac.normalizeChord(chord), inField), chord).toBeUndefined();
      expect(mac.actionForChord(mac.normalizeChord(chord)), chord).toBeDefined();
    }
    expect(mac.actionForChord(mac.normalizeChord('Cmd+T'), inField)).toBe('tab.new');
    expect(mac.actionForChord(mac.normalizeChord('Cmd+W'), inField)).toBe('pane.close');
  });

  it('point only at actions that exist, so every shortcut is also in the palette', async () => {
    // appActions.ts pulls in xterm and the whole UI; its action ids are read from the source.
    const source = readFileSync(new URL('../../src/renderer/src/actions/appActions.ts', import.meta.url), 'utf8');
    const ids = [...source.matchAll(/\bid: '([\w.]+)'/g)].map((match) => match[1]!);
    expect(new Set(ids).size).toBe(ids.length);
    for (const platform of ['Linux x86_64', 'MacIntel']) {
      const { actionForChord, primaryChord } = await load(platform);
      const bindingSource = readFileSync(new URL('../../src/renderer/src/actions/keybindings.ts', import.meta.url), 'utf8');
      const boundIds = [...bindingSource.matchAll(/^\s*'([\w.]+)': \[/gm)].map((match) => match[1]!);
      expect(boundIds.length).toBeGreaterThan(20);
      for (const id of boundIds) {
        expect(ids, id).toContain(id);
        const chord = primaryChord(id);
        if (chord) expect(actionForChord(chord)).toBe(id);
      }
    }
  });
});
