import fc from 'fast-check';
import { parse, stringify } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { lineOfKey, setTomlValues } from '../../src/main/settings/tomlInPlace';

const FILE = `# My Tandem settings — hand-written.

[terminal]
fontSize = 13        # small screen
theme = "dark"
# scrollback = 5000   (tried, too little)
scrollback = 20000

[ai]
# Which model, and where
model = "claude-sonnet-5-5"
"baseUrl" = 'http://127.0.0.1:11434/v1'   # local

[context]
include_env = [
  "LANG",  # always
  "TERM",
]
`;

describe('setTomlValues (config.toml edited in place)', () => {
  it('changes only the value of a changed key: comments, order and formatting stay', () => {
    const edited = setTomlValues(FILE, { terminal: { fontSize: 15 } });
    expect(edited).toBe(FILE.replace('fontSize = 13 ', 'fontSize = 15 '));
  });

  it('edits quoted keys, literal strings and a multi-line array with comments inside', () => {
    const edited = setTomlValues(FILE, { ai: { baseUrl: 'http://example.test/v1' }, context: { include_env: ['LANG', 'EDITOR'] } });
    expect(edited).toContain(`"baseUrl" = "http://example.test/v1"   # local`);
    expect(edited).toContain('include_env = [ "LANG", "EDITOR" ]\n');
    expect(edited).toContain('# Which model, and where');
    expect(parse(edited)).toMatchObject({ ai: { baseUrl: 'http://example.test/v1' }, context: { include_env: ['LANG', 'EDITOR'] } });
  });

  it('adds a new key after the last key of its table, and a new table at the end', () => {
    const edited = setTomlValues(FILE, { ai: { stepsUsePager: true }, session: { restore: false } });
    expect(edited).toContain(`"baseUrl" = 'http://127.0.0.1:11434/v1'   # local\nstepsUsePager = true\n\n[context]`);
    expect(edited.endsWith('  "TERM",\n]\n\n[session]\nrestore = false\n')).toBe(true);
    expect(edited.startsWith('# My Tandem settings — hand-written.\n')).toBe(true);
  });

  it('adds a key to a table with no keys yet, right under its header', () => {
    expect(setTomlValues('[ai]\n# nothing yet\n\n[shell]\nlogin = true\n', { ai: { model: 'm' } })).toBe('[ai]\nmodel = "m"\n# nothing yet\n\n[shell]\nlogin = true\n');
  });

  it('edits dotted keys at the top, keeps CRLF lines, and is not fooled by brackets inside strings', () => {
    expect(setTomlValues('ai.model = "x" # dotted\n', { ai: { model: 'y' } })).toBe('ai.model = "y" # dotted\n');
    expect(setTomlValues('[shell]\r\npath = "/bin/zsh"\r\n', { shell: { path: '/bin/bash' } })).toBe('[shell]\r\npath = "/bin/bash"\r\n');
    const tricky = '[shell]\nargs = ["[x]", """\n[ai]\n"""]\nlogin = true\n';
    expect(setTomlValues(tricky, { shell: { login: false } })).toBe(tricky.replace('login = true', 'login = false'));
  });

  it('refuses a table it cannot edit safely (an inline table)', () => {
    expect(() => setTomlValues('ai = { model = "x" }\n', { ai: { backend: 'anthropic' } })).toThrow(/inline table/);
  });

  it('names the line of a key', () => {
    expect(lineOfKey(FILE, 'terminal', 'scrollback')).toBe(7);
    expect(lineOfKey(FILE, 'context', 'include_env')).toBe(15);
    expect(lineOfKey(FILE, 'ai', '')).toBe(9);
    expect(lineOfKey(FILE, 'ai', 'nope')).toBe(9);
    expect(lineOfKey('# top\n\nfoo = 1\n', 'foo', '')).toBe(3);
  });

  it('any change to a commented file: the result parses to the change, and every comment is still there (property)', () => {
    const name = fc.constantFrom('shell', 'terminal', 'ai', 'context');
    const key = fc.constantFrom('path', 'fontSize', 'model', 'include_env', 'login', 'weird key');
    const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.array(fc.string(), { maxLength: 3 }));
    const settings = fc.dictionary(name, fc.dictionary(key, value, { maxKeys: 4 }), { maxKeys: 4 });
    fc.assert(
      fc.property(settings, settings, fc.array(fc.string({ maxLength: 20 }).map((text) => `# ${text.replace(/[\r\n]/g, ' ')}`), { maxLength: 5 }), (before, change, comments) => {
        // The file as a user might keep it: smol-toml's layout with comments between its lines.
        const lines = stringify(before).split('\n');
        comments.forEach((comment, index) => lines.splice(Math.min(lines.length, index * 2), 0, comment));
        const text = lines.join('\n');
        const edited = setTomlValues(text, change);
        const expected = structuredClone(before) as Record<string, Record<string, unknown>>;
        for (const [table, values] of Object.entries(change)) {
          if (Object.keys(values).length > 0) expected[table] = { ...expected[table], ...values };
        }
        expect(parse(edited)).toEqual(parse(stringify(expected)));
        for (const comment of comments) expect(edited).toContain(comment);
      }),
    );
  });
});
