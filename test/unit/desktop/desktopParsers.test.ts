import { describe, expect, it } from 'vitest';
import { parseTesseractTsv, wordsAsLines } from '../../../src/main/desktop/ocr/tesseractTsv';
import { DEFAULT_EXCLUDED_WINDOWS, WindowExclusion } from '../../../src/main/desktop/privacy/windowExclusion';
import { parseMonitors, screenAt } from '../../../src/main/desktop/x11/screenLayout';
import { parseWindowProperties, quotedStrings, windowIdsOf } from '../../../src/main/desktop/x11/windowProperties';
import { hexWindowId, parseWindowTree, topLevelOf } from '../../../src/main/desktop/x11/windowTree';
import { keySequence, pointerArguments } from '../../../src/main/desktop/x11/xdotoolCommands';

const TREE = `
xwininfo: Window id: 0x50d (the root window) (has no name)

  Root window id: 0x50d (the root window) (has no name)
  Parent window id: 0x0 (none)
     3 children:
     0x200031 "Build failed": ("xmessage" "Xmessage")  104x52+700+500  +700+500
        1 child:
        0x200032 (has no name): ()  104x52+0+0  +701+501
     0x400005 (has no name): ()  1x1+-10+-10  +-10+-10
     0x600010 "a \\"quoted\\": (odd) title": ("xterm" "XTerm")  484x264+300+200  +300+200
`;

describe('xwininfo -root -tree', () => {
  it('reads ids, depth, absolute geometry, names, classes and the stacking order of the root children', () => {
    const { rootId, windows } = parseWindowTree(TREE);
    expect(rootId).toBe('0x50d');
    expect(windows.get('0x200031')).toMatchObject({ depth: 1, parent: '0x50d', name: 'Build failed', instance: 'xmessage', application: 'Xmessage', stackIndex: 0, rect: { x: 700, y: 500, width: 104, height: 52 } });
    expect(windows.get('0x200032')).toMatchObject({ depth: 2, parent: '0x200031', rect: { x: 701, y: 501 } });
    expect(windows.get('0x400005')).toMatchObject({ depth: 1, stackIndex: 1, rect: { x: -10, y: -10 } });
    expect(windows.get('0x600010')).toMatchObject({ application: 'XTerm', stackIndex: 2 });
    expect(topLevelOf(windows, '0x200032')?.id).toBe('0x200031');
  });

  it('normalises decimal and hex ids', () => {
    expect(hexWindowId('4194316')).toBe('0x40000c');
    expect(hexWindowId('0x40000C'.toLowerCase())).toBe('0x40000c');
    expect(hexWindowId(1293)).toBe('0x50d');
  });
});

describe('xprop', () => {
  it('prefers _NET_WM_NAME, reads the class pair and the pid', () => {
    const output = ['WM_CLASS = "keepassxc", "KeePassXC"', '_NET_WM_NAME = "Datenbank – KeePassXC"', 'WM_NAME = "Datenbank - KeePassXC"', '_NET_WM_PID = 4242'].join('\n');
    expect(parseWindowProperties(output)).toEqual({ title: 'Datenbank – KeePassXC', application: 'KeePassXC', instance: 'keepassxc', pid: 4242 });
  });

  it('falls back to WM_NAME and tolerates missing properties', () => {
    const output = ['WM_CLASS:  not found.', '_NET_WM_NAME:  not found.', 'WM_NAME = "plain"', '_NET_WM_PID:  not found.'].join('\n');
    expect(parseWindowProperties(output)).toEqual({ title: 'plain', application: '', instance: '' });
  });

  it('decodes escapes and octal bytes in quoted strings', () => {
    expect(quotedStrings('"say \\"hi\\"", "back\\\\slash", "caf\\303\\251"')).toEqual(['say "hi"', 'back\\slash', 'café']);
  });

  it('reads window id lists from root properties', () => {
    const root = '_NET_CLIENT_LIST_STACKING = 0x1a00003, 0x1c00007\n_NET_ACTIVE_WINDOW = 0x1c00007';
    expect(windowIdsOf(root, '_NET_CLIENT_LIST_STACKING')).toEqual(['0x1a00003', '0x1c00007']);
    expect(windowIdsOf(root, '_NET_ACTIVE_WINDOW')).toEqual(['0x1c00007']);
    expect(windowIdsOf('_NET_CLIENT_LIST:  no such atom on any window.', '_NET_CLIENT_LIST')).toBeUndefined();
    // What xprop -notype prints for WINDOW lists (openbox).
    const notype = '_NET_CLIENT_LIST_STACKING: window id # 0x400031, 0x60000c\n_NET_CLIENT_LIST:  not found.\n_NET_ACTIVE_WINDOW: window id # 0x60000c';
    expect(windowIdsOf(notype, '_NET_CLIENT_LIST_STACKING')).toEqual(['0x400031', '0x60000c']);
    expect(windowIdsOf(notype, '_NET_CLIENT_LIST')).toBeUndefined();
    expect(windowIdsOf(notype, '_NET_ACTIVE_WINDOW')).toEqual(['0x60000c']);
  });
});

describe('xrandr --listmonitors', () => {
  it('reads monitors and finds the one holding a point', () => {
    const screens = parseMonitors('Monitors: 2\n 0: +*DP-1 1920/510x1080/287+0+0  DP-1\n 1: +HDMI-1 2560/600x1440/340+1920+0  HDMI-1\n');
    expect(screens).toEqual([
      { index: 0, name: 'DP-1', primary: true, rect: { x: 0, y: 0, width: 1920, height: 1080 } },
      { index: 1, name: 'HDMI-1', primary: false, rect: { x: 1920, y: 0, width: 2560, height: 1440 } },
    ]);
    expect(screenAt(screens, { x: 2000, y: 10 })).toBe(1);
    expect(screenAt(screens, { x: -5000, y: 10 })).toBe(0);
  });
});

describe('tesseract tsv', () => {
  const tsv = [
    'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
    '1\t1\t0\t0\t0\t0\t0\t0\t208\t104\t-1\t',
    '5\t1\t1\t1\t1\t1\t46\t20\t58\t18\t96.4\tBuild',
    '5\t1\t1\t1\t1\t2\t118\t20\t70\t18\t96.4\tfailed',
    '5\t1\t2\t1\t1\t1\t10\t10\t2\t40\t95\t ',
    '5\t1\t2\t1\t1\t2\t5\t5\t4\t4\t20\t|',
    '5\t1\t3\t1\t1\t1\t108\t70\t68\t18\t95.6\tCancel',
  ].join('\n');

  it('keeps words with their boxes and lines, drops blanks and low-confidence punctuation', () => {
    const words = parseTesseractTsv(tsv);
    expect(words.map((word) => word.text)).toEqual(['Build', 'failed', 'Cancel']);
    expect(words[2]).toEqual({ text: 'Cancel', box: { x: 108, y: 70, width: 68, height: 18 }, confidence: 95.6, line: 1 });
    expect(wordsAsLines(words)).toBe('Build failed\nCancel');
  });
});

describe('window exclusion', () => {
  const exclusion = new WindowExclusion();
  const window = (title: string, application = '', instance = '') => ({ title, application, instance });

  it('excludes password managers by title or class, as whole words, case-insensitively', () => {
    expect(exclusion.excludes(window('passwords.kdbx - KeePassXC'))).toBe(true);
    expect(exclusion.excludes(window('Vault', 'Bitwarden', 'bitwarden'))).toBe(true);
    expect(exclusion.excludes(window('1password'))).toBe(true);
    expect(exclusion.excludes(window('', 'Pinentry-gtk-2', 'pinentry-gtk-2'))).toBe(true);
    expect(exclusion.excludes(window('Authenticate', 'Polkit-gnome-authentication-agent-1'))).toBe(true);
    expect(exclusion.excludes(window('zookeeper logs - vim', 'XTerm', 'xterm'))).toBe(false);
    expect(exclusion.excludes(window('Build failed', 'Xmessage', 'xmessage'))).toBe(false);
  });

  it('takes its own list (the policy) with wildcards, and an empty list excludes nothing', () => {
    const custom = new WindowExclusion(['*bank*', 'Signal']);
    expect(custom.matchFor(window('My Bank – Firefox'))).toBe('*bank*');
    expect(custom.excludes(window('Signal', 'Signal', 'signal'))).toBe(true);
    expect(custom.excludes(window('passwords.kdbx - KeePassXC'))).toBe(false);
    expect(new WindowExclusion([]).excludes(window('KeePassXC'))).toBe(false);
    expect(DEFAULT_EXCLUDED_WINDOWS.length).toBeGreaterThan(10);
  });

  it('treats regex characters in a pattern literally', () => {
    expect(new WindowExclusion(['a+b (c)']).excludes(window('x a+b (c) y'))).toBe(true);
    expect(new WindowExclusion(['a+b (c)']).excludes(window('aab c'))).toBe(false);
  });
});

describe('xdotool commands', () => {
  it('clicks, double-clicks and scrolls at screen points', () => {
    expect(pointerArguments({ kind: 'click', at: { x: 10.4, y: 20.6 }, button: 'right', count: 1 })).toEqual(['mousemove', '10', '21', 'click', '--repeat', '1', '--delay', '80', '3']);
    expect(pointerArguments({ kind: 'click', at: { x: 1, y: 2 }, button: 'left', count: 2 })).toEqual(['mousemove', '1', '2', 'click', '--repeat', '2', '--delay', '80', '1']);
    expect(pointerArguments({ kind: 'scroll', at: { x: 1, y: 2 }, down: -3, right: 0 })).toEqual(['mousemove', '1', '2', 'click', '--repeat', '3', '--delay', '20', '4']);
  });

  it('types from stdin, never argv', () => {
    expect(pointerArguments({ kind: 'type', text: '--help; rm -rf /' })).toEqual(['type', '--delay', '8', '--file', '-']);
  });

  it('turns the key names models use into keysyms and refuses anything else', () => {
    expect(keySequence('ctrl+shift+t')).toEqual(['ctrl+shift+t']);
    expect(keySequence('Enter')).toEqual(['Return']);
    expect(keySequence('cmd+PageDown  Escape')).toEqual(['super+Next', 'Escape']);
    expect(() => keySequence('ctrl+$(reboot)')).toThrow(/not a key chord/);
    expect(() => keySequence('   ')).toThrow(/no keys/);
  });
});
