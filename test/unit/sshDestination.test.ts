import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { destinationProblem, shellQuote, sshCommandLine } from '../../src/shared/sshDestination';

describe('destinationProblem', () => {
  it('accepts the destinations ssh takes as one word', () => {
    for (const destination of ['web1', 'alice@db.example.com', 'ssh://bob@host:2222', '10.0.0.5', '[::1]', 'me@host.with-dash_and.dots', 'büro']) {
      expect(destinationProblem(destination), destination).toBeUndefined();
    }
  });

  it('refuses what could add an option or a second word to the command', () => {
    expect(destinationProblem('')).toMatch(/needed/);
    expect(destinationProblem('-oProxyCommand=touch /tmp/x')).toMatch(/one word/);
    expect(destinationProblem('-oProxyCommand=id')).toMatch(/cannot start with "-"/);
    expect(destinationProblem('host; rm -rf ~')).toMatch(/one word/);
    expect(destinationProblem('host\nrm')).toMatch(/one word/);
    expect(destinationProblem('host\tx')).toMatch(/one word/);
    expect(destinationProblem('host\x1b[2J')).toMatch(/control characters/);
    expect(destinationProblem('h'.repeat(1_025))).toMatch(/at most/);
  });
});

describe('shellQuote', () => {
  it('leaves plain words as typed and quotes the rest', () => {
    expect(shellQuote('web1')).toBe('web1');
    expect(shellQuote('alice@db.example.com')).toBe('alice@db.example.com');
    expect(shellQuote('host;id')).toBe("'host;id'");
    expect(shellQuote('=host')).toBe("'=host'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(sshCommandLine(['-p', '2222', 'me@$(id)'])).toBe("ssh -p 2222 'me@$(id)'");
  });

  // Each shell reads the quoted words back as one argument each, with nothing expanded or run.
  const hostile = ['plain', 'a b', "it's", 'back\\slash', 'two\\\\', '$(touch /nonexistent/x)', '`id`', '$HOME', '~root', '*', '{a,b}', '=ls', 'semi;colon', 'pipe|amp&', '!!', 'percent%self', 'new\nline', 'ünïcode', "'\\'", '#hash', '(paren)', '-dash'];
  const printArgs = "for a in \"$@\"; do printf '<%s>' \"$a\"; done";
  const shells: [string, (line: string) => string[]][] = [
    ['sh', (line) => ['-c', `set -- ${line}; ${printArgs}`]],
    ['bash', (line) => ['-c', `set -- ${line}; ${printArgs}`]],
    ['zsh', (line) => ['-c', `set -- ${line}; ${printArgs}`]],
    ['fish', (line) => ['-c', `for a in ${line}; printf '<%s>' $a; end`]],
  ];
  for (const [shell, argv] of shells) {
    it(`quotes words so that ${shell} reads them back unchanged`, () => {
      const line = hostile.map(shellQuote).join(' ');
      const out = execFileSync(shell, argv(line), { encoding: 'utf8' });
      expect(out).toBe(hostile.map((word) => `<${word}>`).join(''));
    });
  }
});
