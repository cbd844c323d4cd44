import { beforeAll, describe, expect, it } from 'vitest';
import { getShellParser, literalValue, type ShellAnalysis, type ShellParser } from '../../src/main/safety/shellParser';

let parser: ShellParser;
beforeAll(async () => {
  parser = await getShellParser();
});

const analyze = (source: string): ShellAnalysis => parser.analyze(source);
const names = (source: string): string[] => analyze(source).commands.map((c) => (c.name ? (literalValue(c.name) ?? c.name.text) : `<${c.kind}>`));

describe('shellParser', () => {
  it('finds every simple command, wherever it hides', () => {
    expect(names('a && b || c; d | e & f')).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(names('x $(y `z`) <(w) >(v)')).toEqual(['x', 'y', 'z', 'w', 'v']);
    expect(names('if a; then b; elif c; then d; else e; fi')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(names('for i in $(a); do b; done; while c; do d; done; case x in y) e;; esac')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('records leading assignments on the command only (not again as separate assignments)', () => {
    const analysis = analyze('A=1 B=$(c) d');
    expect(analysis.commands.map((c) => c.kind)).toEqual(['simple', 'simple']);
    expect(analysis.commands[0]?.assignments.map((a) => a.name)).toEqual(['A', 'B']);
    expect(names('A=1 B=2')).toEqual(['<assignment>']);
    expect(names('export A=$(rm x)')).toEqual(['export', 'rm']);
  });

  it('gives a trailing redirection to the last command of a list or pipeline, as bash does', () => {
    const list = analyze('cd ~ && echo x >> .bashrc');
    expect(list.commands.map((c) => c.redirects.length)).toEqual([0, 1]);
    const pipeline = analyze('a | b > f 2>&1');
    expect(pipeline.commands[0]?.redirects).toEqual([]);
    expect(pipeline.commands[1]?.redirects.map((r) => r.operator)).toEqual(['>', '>&']);
    expect(pipeline.commands[1]?.pipeline?.stage).toBe(1);
    const group = analyze('{ a; b; } > f');
    expect(group.commands.map((c) => c.kind)).toEqual(['redirection', 'simple', 'simple']);
  });

  it('keeps a heredoc command and the rest of its pipeline in one pipeline', () => {
    const analysis = analyze('cat <<EOF | sh\nrm -rf /\nEOF');
    const [cat, sh] = analysis.commands;
    expect(cat?.pipeline?.id).toBe(sh?.pipeline?.id);
    expect([cat?.pipeline?.stage, sh?.pipeline?.stage]).toEqual([0, 1]);
    expect(cat?.redirects[0]?.heredoc?.body).toBe('rm -rf /\n');
  });

  it('keeps the read-write `<>` operator (the grammar has no rule for it)', () => {
    const analysis = analyze('exec 3<>/dev/sda');
    expect(analysis.commands[0]?.redirects[0]?.operator).toBe('<>');
    expect(analysis.issues.length).toBeGreaterThan(0);
  });

  it('resolves quoting and escapes in words', () => {
    const [command] = analyze(`\\rm -r''f "$HOME"/x $'\\x2f'`).commands;
    expect(command?.name && literalValue(command.name)).toBe('rm');
    expect(command?.args.map((w) => literalValue(w))).toEqual(['-rf', undefined, '/']);
    expect(command?.args[1]?.parts[0]).toMatchObject({ type: 'variable', name: 'HOME', quoted: true, plain: true });
  });

  it('marks pipelines, background jobs and function bodies', () => {
    const analysis = analyze(':(){ :|:& };:');
    const calls = analysis.commands.filter((c) => c.kind === 'simple');
    expect(calls.map((c) => [c.functions, c.background, c.pipeline?.stage])).toEqual([
      [[':'], true, 0],
      [[':'], true, 1],
      [[], false, undefined],
    ]);
  });

  it('reports what it cannot parse', () => {
    expect(analyze('echo "unterminated').issues.length).toBeGreaterThan(0);
    expect(analyze('ls )').issues.length).toBeGreaterThan(0);
    expect(analyze('ls -la').issues).toEqual([]);
  });
});
