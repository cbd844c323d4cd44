/**
 * Issue 14, the commands half: read-only commands that can run programs. Each case was GREEN
 * before; it is now YELLOW (or RED where it writes a protected path), with the reason shown.
 * Everyday read-only usage of the same tools stays GREEN.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyCommand, type RiskLevel } from '../../src/main/safety/commandRisk';
import { substitutionsIn } from '../../src/main/safety/rules/shellBuiltins';

const HOME = '/home/u';
const CONTEXT = { cwd: `${HOME}/project`, home: HOME, protectedPaths: ['~/.ssh', `${HOME}/.bashrc`, `${HOME}/.config/tandem`] };

async function verdict(command: string): Promise<{ level: RiskLevel; reasons: string }> {
  const result = await classifyCommand(command, CONTEXT);
  return { level: result.level, reasons: result.reasons.join(' | ') };
}

type Case = [command: string, level: RiskLevel, reason: RegExp];

const check = async ([command, level, reason]: Case): Promise<void> => {
  const got = await verdict(command);
  expect(got.level, `${command}: ${got.reasons}`).toBe(level);
  expect(got.reasons, command).toMatch(reason);
};

describe('read-only tools with an option that runs a program', () => {
  it.each<Case>([
    ['rg --pre ./evil foo', 'yellow', /rg --pre runs \.\/evil/],
    ['rg --pre=./evil --pre-glob "*.pdf" foo', 'yellow', /rg --pre runs/],
    ['rg --hostname-bin ./evil foo', 'yellow', /rg --hostname-bin runs \.\/evil/],
    ['fd -x rm {}', 'yellow', /rm: deletes/],
    ['fd -e log --exec rm', 'yellow', /rm: deletes/],
    ['fd -X rm', 'yellow', /rm: deletes/],
    ['fd -Hx rm', 'yellow', /rm: deletes/],
    ['fd -xrm', 'yellow', /fd -x\/-X runs a command/],
    ['fdfind --exec-batch rm -rf', 'yellow', /rm/],
    ['fd . / -x rm -rf {}', 'yellow', /rm -r deletes/],
    ['fd -x cat {} \\; -x rm {}', 'yellow', /rm: deletes/],
    ['fd -e ts -x cat \\; -X rm', 'yellow', /rm: deletes/],
    ['git grep -O foo', 'yellow', /git grep -O opens/],
    ['git grep --open-files-in-pager=vim foo', 'yellow', /git grep -O opens/],
    ['man -P ./evil ls', 'yellow', /man --pager runs \.\/evil/],
    ['man --pager="rm -rf ~" ls', 'red', /man --pager runs rm -rf ~/],
    ['man -H ls', 'yellow', /man --html opens a web browser/],
    ['man --html=firefox ls', 'yellow', /web browser \(firefox\)/],
    ['man -C ./man.conf ls', 'yellow', /man_db\.conf/],
    ['man -u ls', 'yellow', /man -u rebuilds its database caches/],
    ['man -c ls', 'yellow', /catman/],
    ['MANROFFOPT=-U man ls', 'yellow', /MANROFFOPT/],
    ['info --restore keys ls', 'yellow', /info --restore replays keystrokes from keys/],
    ['bat --pager ./evil f', 'yellow', /bat --pager runs \.\/evil/],
    ['batcat --pager="sh -c ./evil" f', 'yellow', /batcat --pager runs sh -c \.\/evil/],
    ["less '+!id' f", 'yellow', /less \+!id runs less commands/],
    ["less '+|rm -rf x' f", 'yellow', /runs less commands/],
    ['less --lesskey-src=./keys f', 'yellow', /lesskey/],
    ['zless "+!id" f.gz', 'yellow', /runs less commands/],
    ["LESSOPEN='|./evil %s' less f", 'yellow', /LESSOPEN/],
    ["LESS='+!id' less f", 'yellow', /LESS=… changes what programs load or run/],
    ["MANOPT='-P ./evil' man ls", 'yellow', /MANOPT/],
    ['BAT_PAGER=./evil bat f', 'yellow', /BAT_PAGER/],
    ['RIPGREP_CONFIG_PATH=./rgrc rg foo', 'yellow', /RIPGREP_CONFIG_PATH/],
    ['TAR_OPTIONS=--to-command=./evil tar -tf a.tar', 'yellow', /TAR_OPTIONS/],
    ['ag --pager ./evil foo', 'yellow', /ag --pager runs/],
    ['ack --pager=./evil foo', 'yellow', /ack --pager runs/],
    ['GREP=./evil zgrep foo f.gz', 'yellow', /GREP=\.\/evil makes programs run it/],
    ['MOST_EDITOR=./evil most f', 'yellow', /MOST_EDITOR/],
    ['LESSECHO=./evil less f', 'yellow', /LESSECHO/],
    ['LESSEDIT=./evil less f', 'yellow', /LESSEDIT/],
    ['SYSTEMD_LESS=+!id systemd-analyze blame', 'yellow', /SYSTEMD_LESS/],
    ['APPDATA=/tmp/x colordiff a b', 'yellow', /APPDATA/],
    ['compgen -C ./evil x', 'yellow', /compgen -C runs/],
    ['cloc --extract-with="./evil >FILE<" a.tgz', 'yellow', /cloc --extract-with runs/],
    ['cloc --vcs=./evil .', 'yellow', /cloc --vcs/],
    ['cloc --git-diff-rel HEAD~1 HEAD', 'yellow', /runs git/],
    ['cloc --count-and-diff a b', 'yellow', /runs git/],
    ['nm @opts a.o', 'yellow', /nm @opts reads options/],
    ['systemd-analyze -H admin@host blame', 'yellow', /over ssh/],
    ['systemd-analyze --generators verify a.service', 'yellow', /runs the unit generators/],
    ['sdiff --diff-program=./evil a b', 'yellow', /sdiff --diff-program runs/],
    ['nm --plugin ./evil.so a.o', 'yellow', /nm --plugin loads/],
    ['systemd-analyze unit-shell foo.service', 'yellow', /unit-shell/],
    ['systemd-analyze log-level debug', 'yellow', /changes the service manager/],
    ['ss -K dst 10.0.0.1', 'yellow', /ss -K closes/],
    ['sensors -s', 'yellow', /sensors -s writes/],
    ['file -C -m magic', 'yellow', /file -C writes/],
    ['tldr --update', 'yellow', /tldr --update/],
    ['tldr -c', 'yellow', /-c clears it/],
    ['tldr --auto-update-interval 7 tar', 'yellow', /tldr --update/],
    ['tldr --seed-config', 'yellow', /writes its config file/],
    ['tldr update', 'yellow', /the Python client/],
    ['lspci -q', 'yellow', /lspci -q\/-Q asks a DNS server/],
    ['lastlog -C -u root', 'yellow', /lastlog -C\/-S rewrites records/],
    ['lastlog --set -u root', 'yellow', /lastlog -C\/-S rewrites records/],
    ['procs --load-config ./p.toml', 'yellow', /procs --load-config reads \.\/p\.toml, which names the pager/],
    ['procs --gen-completion bash', 'yellow', /writes a completion file/],
    ['sort --compress-program=./evil f', 'yellow', /sort --compress-program/],
    ['tar -tf a.tar --to-command=./evil', 'yellow', /tar runs another program/],
    ['tar -tf a.tar -I ./evil', 'yellow', /tar runs another program/],
    ['tar -tf a.tar --checkpoint=1 --checkpoint-action=exec=./evil', 'yellow', /tar runs another program/],
    ['find . -exec ./evil {} \\;', 'yellow', /\.\/evil, a program outside/],
    ['find . -okdir rm {} \\;', 'red', /find -okdir rm on \. deletes the current directory/],
    ['xargs ./evil', 'yellow', /\.\/evil/],
    ['watch ./evil', 'yellow', /\.\/evil/],
    ['env ./evil', 'yellow', /\.\/evil/],
    ['timeout 5 ./evil', 'yellow', /\.\/evil/],
    ['nice ./evil', 'yellow', /\.\/evil/],
    ['strace -o trace.txt ls', 'yellow', /strace is not a command Tandem knows/],
    ['ltrace ls', 'yellow', /ltrace is not a command Tandem knows/],
  ])('%s is %s', async (command, level, reason) => check([command, level, reason]));

  it.each(['rg foo', 'rg -n --hidden -g "*.ts" foo src', 'rg --pre-glob "*.pdf" foo', 'fd -e ts', 'fd -H -t f config', 'fd -x cat {}', 'git grep -n foo', 'man ls', 'man 5 crontab', 'bat src/main.ts', "bat --pager='less -RF' f", 'less README.md', 'less +G log.txt', 'less +/error log.txt', 'less -R +F log.txt', 'more f', 'tree -L 2', 'cloc src', 'shuf -n 3 f', 'info ls', 'sdiff a b', 'file x', 'ss -tlnp', 'systemd-analyze blame', 'systemd-analyze --root /srv/img blame', 'systemd-analyze compare-versions 1.2 1.10', 'man -R UTF-8 ls', 'tree -L 2 -H .', 'tldr tar', 'tldr -p linux tar', 'lastlog -u root', 'lspci -vvv', 'nm -C a.o', 'zstdcat f.zst', 'zstd -dc f.zst', 'cloc --xsl=style.xsl .', 'GREP=grep zgrep foo f.gz', 'eza -l --git', 'procs --gen-completion-out bash', 'find . -name "*.ts" -exec grep -l foo {} +', 'hash', 'compgen -c', 'let i++', 'read -r line', 'printf -v x %s 1', 'test -v HOME', '[[ -v HOME ]]', '(( x = 1 + 2 ))', 'echo $(( 1 + 2 ))'])('%s stays GREEN', async (command) => {
    const got = await verdict(command);
    expect(got.level, `${command}: ${got.reasons}`).toBe('green');
  });
});

describe('bash builtins that evaluate an arithmetic subscript', () => {
  it.each<Case>([
    ["let 'a[$(./evil)]=1'", 'yellow', /let evaluates a\[\$\(\.\/evil\)\]=1 as arithmetic/],
    ["let 'a[$(rm -rf ~)]=1'", 'red', /rm -r -f on ~/],
    ["test -v 'a[$(./evil)]'", 'yellow', /test -v evaluates/],
    ["[ -v 'a[$(./evil)]' ]", 'yellow', /evaluates a\[\$\(\.\/evil\)\] as arithmetic/],
    ["[[ -v 'a[$(./evil)]' ]]", 'yellow', /as arithmetic/],
    ["[[ 1 -eq 'a[`./evil`]' ]]", 'yellow', /as arithmetic/],
    ["printf -v 'a[$(./evil)]' x", 'yellow', /printf -v evaluates/],
    ["read -a 'a[$(./evil)]'", 'yellow', /read evaluates/],
    ["read 'a[$(./evil)]' <<< x", 'yellow', /read evaluates/],
    ["declare 'a[$(./evil)]=1'", 'yellow', /declare evaluates/],
    ["local 'a[$(./evil)]=1'", 'yellow', /local evaluates/],
    ["export 'a[$(./evil)]=1'", 'yellow', /export evaluates/],
    ["unset 'a[$(rm -rf /)]'", 'red', /rm -r -f on \//],
    ["(( 'a[$(./evil)]' ))", 'yellow', /as arithmetic/],
    ["echo $(( 'a[$(./evil)]' ))", 'yellow', /as arithmetic/],
    ["echo ${a['$(./evil)']}", 'yellow', /as arithmetic/],
    ["wait -p 'a[$(./evil)]'", 'yellow', /wait -p evaluates/],
    ['hash -p ./evil ls', 'yellow', /hash -p makes ls run \.\/evil/],
    ['jobs -x ./evil %1', 'yellow', /\.\/evil, a program outside/],
    ['jobs -x rm -rf ~', 'red', /rm -r -f on ~/],
    ['enable -f ./evil.so x', 'yellow', /enable is not a command Tandem knows/],
    ['alias ls=./evil', 'yellow', /alias ls changes what a command name runs/],
    ['trap ./evil EXIT', 'yellow', /trap runs \.\/evil/],
    ['complete -C ./evil ls', 'yellow', /complete is not a command Tandem knows/],
    ["bind -x '\"\\C-a\": ./evil'", 'yellow', /bind is not a command Tandem knows/],
  ])('%s is %s', async (command, level, reason) => check([command, level, reason]));

  it('finds the commands in a subscript, nested or in backticks', () => {
    expect(substitutionsIn('a[$(echo $(id))]')).toEqual(['echo $(id)']);
    expect(substitutionsIn('a[`id`] + b[$(ls)]')).toEqual(['id', 'ls']);
    expect(substitutionsIn('a[$((1+2))]')).toEqual([]);
  });

  it('is never GREEN for a let/read/printf -v/test -v word holding a command substitution (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("let '", "read '", "printf -v '", "test -v '", "unset '", "(( '"), fc.stringMatching(/^[a-z_]{1,6}$/), fc.constantFrom('$(', '`'), async (lead, name, open) => {
        const close = open === '$(' ? ')' : '`';
        const tail = lead === "(( '" ? "' ))" : "'";
        const command = `${lead}${name}[${open}./evil${close}]${tail}`;
        expect((await verdict(command)).level, command).not.toBe('green');
      }),
      { numRuns: 40 },
    );
  });
});

describe('text tools with an output-file option', () => {
  it.each<Case>([
    ['shuf -o ~/.bashrc f', 'red', /writes to protected path ~\/\.bashrc/],
    ['shuf -o out.txt f', 'yellow', /writes to ~\/project\/out\.txt/],
    ['tree -o ~/.bashrc', 'red', /protected path/],
    ['tree -o tree.txt', 'yellow', /writes to/],
    ['tree -R -H . -o index.html', 'yellow', /00Tree\.html/],
    ['tree -R -L 2', 'yellow', /00Tree\.html/],
    ['zstdcat -o ~/.bashrc f.zst', 'red', /protected path ~\/\.bashrc/],
    ['zstdcat -o out f.zst', 'yellow', /writes to ~\/project\/out/],
    ['zstd -dc -o out f.zst', 'yellow', /writes to ~\/project\/out/],
    ['zstdcat --output-dir-flat /tmp/o f.zst', 'yellow', /writes to \/tmp\/o/],
    ['zstdcat --rm -o /tmp/k ~/.ssh/k.zst', 'red', /deletes protected path ~\/\.ssh/],
    ['zstd --train samples/*', 'yellow', /writes a dictionary/],
    ['cloc --strip-comments=nc .', 'yellow', /cloc --strip-comments writes a stripped copy/],
    ['cloc --sdir=/home/u/.ssh .', 'red', /protected path/],
    ['cloc --diff-alignment=/home/u/.bashrc a b', 'red', /protected path/],
    ['cloc --xsl .', 'yellow', /writes to ~\/project\/cloc\.xsl/],
    ['eza --write-theme=/home/u/.ssh', 'red', /protected path ~\/\.ssh/],
    ['eza --write-theme', 'yellow', /writes to ~\/project\/theme\.yml/],
    ['info -o ~/.bashrc ls', 'red', /protected path/],
    ['info --dribble ~/.ssh/x ls', 'red', /protected path ~\/\.ssh/],
    ['sdiff -o ~/.bashrc a b', 'red', /protected path/],
    ['sdiff -o merged a b', 'yellow', /sdiff -o merges interactively/],
    ['cloc --report-file=/home/u/.bashrc .', 'red', /protected path/],
    ['cloc --out=report.txt .', 'yellow', /writes to/],
    ['cloc --sql=db.sql .', 'yellow', /writes to/],
    ['uniq a ~/.bashrc', 'red', /protected path/],
    ['tee ~/.ssh/authorized_keys', 'red', /protected path/],
    ['split -l 1 f ~/.ssh/x', 'red', /protected path/],
    ['csplit -f ~/.ssh/k f 1', 'red', /protected path/],
    ['split -l 10 f part-', 'yellow', /split writes files named part-/],
    ['dd if=a of=~/.bashrc', 'red', /protected path/],
    ['wget -O ~/.bashrc http://x', 'red', /protected path/],
    ['curl -o ~/.bashrc http://x', 'red', /protected path/],
    ['less -o ~/.bashrc f', 'red', /protected path/],
    ['atop -w ~/.bashrc', 'red', /protected path/],
    ['ss -D ~/.bashrc', 'red', /protected path/],
    ['find . -fls ~/.bashrc', 'red', /protected path/],
    ['sort -o ~/.bashrc f', 'red', /protected path/],
  ])('%s is %s', async (command, level, reason) => check([command, level, reason]));
});

describe('git: options and environment that make read commands run programs', () => {
  it.each<Case>([
    ['git -c core.fsmonitor=./evil status', 'yellow', /git -c core\.fsmonitor makes git run a program/],
    ['git -c uploadpack.packObjectsHook=./evil status', 'yellow', /packObjectsHook/],
    ['git -c protocol.ext.allow=always ls-remote', 'yellow', /protocol\.ext\.allow/],
    ['git -c url.ext::sh.insteadOf=origin ls-remote origin', 'yellow', /insteadOf/],
    ['git -c include.path=/tmp/x status', 'yellow', /include\.path/],
    ['git -c trace2.normalTarget=/tmp/t status', 'yellow', /trace2/],
    ['git --exec-path=/tmp status', 'yellow', /--exec-path=\/tmp runs git's helper programs/],
    ['git --config-env=core.pager=P log', 'yellow', /--config-env/],
    ['git help -w log', 'yellow', /git help --web opens a web browser/],
    ['GIT_DIR=/tmp/x git status', 'yellow', /GIT_DIR/],
    ['GIT_CONFIG_GLOBAL=/tmp/c git log', 'yellow', /GIT_CONFIG_GLOBAL/],
    ['GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=./evil git log', 'yellow', /GIT_CONFIG_COUNT/],
    ['GIT_EXTERNAL_DIFF=./evil git diff', 'yellow', /GIT_EXTERNAL_DIFF=\.\/evil makes programs run it/],
    ['GIT_PAGER=./evil git log', 'yellow', /GIT_PAGER/],
    ['GIT_SSH_COMMAND=./evil git ls-remote', 'yellow', /GIT_SSH_COMMAND/],
    ['GIT_EDITOR=./evil git log', 'yellow', /GIT_EDITOR/],
    ['GIT_EXEC_PATH=/tmp git status', 'yellow', /GIT_EXEC_PATH/],
    ['GIT_TRACE=/tmp/t git status', 'yellow', /GIT_TRACE/],
    ['HOME=/tmp/x git status', 'yellow', /HOME=… changes what programs load or run/],
    ['env GIT_DIR=/tmp/x git status', 'yellow', /env sets GIT_DIR/],
    ['git -C "$DIR" status', 'yellow', /known only at run time/],
  ])('%s is %s', async (command, level, reason) => check([command, level, reason]));

  it.each(['git status', 'git log --oneline', 'git diff --stat', 'git show HEAD', 'git -P log', 'GIT_PAGER=cat git log', 'GIT_AUTHOR_NAME=x git log'])('%s stays GREEN (no repository config here)', async (command) => {
    expect((await verdict(command)).level).toBe('green');
  });
});

describe('what stays right', () => {
  it('judges commands inside subshells and && / || lists part by part', async () => {
    expect((await verdict("(rg foo || rg --pre ./evil bar) && ls")).reasons).toMatch(/rg --pre runs/);
    expect((await verdict('(ls && fd -e ts) || git status')).level).toBe('green');
  });

  it('keeps sed -n p GREEN, and sed w / e / s///e not', async () => {
    expect((await verdict("sed -n '1,5p' f")).level).toBe('green');
    expect((await verdict("sed 'w /home/u/.bashrc' f")).level).toBe('red');
    expect((await verdict("sed '1e ./evil' f")).level).toBe('yellow');
    expect((await verdict("sed 's/x/id/e' f")).level).toBe('yellow');
  });

  it('applies a VAR=x prefix only to its own command', async () => {
    expect((await verdict('LESS=-R less f && ls')).level).toBe('yellow');
    const result = await classifyCommand('LESS=+!id less f; ls', CONTEXT);
    expect(result.parts.find((p) => p.command === 'ls')?.level).toBe('green');
  });
});
