import { describe, expect, it } from 'vitest';
import { shellStartedBy, shellWithoutIntegrationNotice } from '../../src/main/blocks/shellSpawners';

/** Command lines that start an interactive shell (its prompts then show inside the block). */
const SPAWNS = [
  'sudo -i',
  'sudo -s',
  'sudo su -',
  'sudo su - postgres',
  'sudo -u bob -i',
  'sudo -u bob bash',
  'sudo --login',
  'su',
  'su -',
  'su - alice',
  'su -l root',
  'doas -s',
  'doas su -',
  'bash',
  'bash --norc --noprofile -i',
  'bash -l',
  '/bin/sh -i',
  'sh',
  'zsh -f',
  'fish --no-config',
  'dash',
  'busybox sh',
  'exec bash',
  'env -i bash',
  'TERM=dumb bash --norc',
  'docker exec -it web sh',
  'docker exec -ti web /bin/bash -l',
  'podman exec -it c bash',
  'docker run -it ubuntu',
  'docker run --rm -it alpine sh',
  'kubectl exec -it pod -- bash',
  'kubectl exec --stdin --tty pod -- /bin/sh',
  'nsenter -t 1 -a',
  'machinectl shell',
  'machinectl shell root@box',
  'chroot /srv/jail',
  'toolbox enter',
];

/** Command lines that do not (a command, a script, no terminal, not a shell). */
const DOES_NOT = [
  '',
  'ls -l',
  'bash script.sh',
  'bash -c "echo hi"',
  'sh -c ls',
  'sudo apt update',
  'sudo -u bob ls',
  'su -c whoami',
  'su - alice -c "id"',
  'doas ls',
  'docker exec web ls',
  'docker exec -i web sh',
  'docker ps',
  'docker run -it -v /a:/b ubuntu python3',
  'kubectl get pods',
  'kubectl exec pod -- ls',
  'machinectl list',
  'python3',
  'ssh host',
  'echo bash',
  'bashtop',
  'sudo -i\nls',
];

describe('shellStartedBy', () => {
  it.each(SPAWNS)('%s starts a shell', (line) => {
    expect(shellStartedBy(line)).toBe(line);
  });

  it.each(DOES_NOT)('%j does not', (line) => {
    expect(shellStartedBy(line)).toBeUndefined();
  });
});

describe('shellWithoutIntegrationNotice', () => {
  it('names the command, and the host when the block is on one', () => {
    expect(shellWithoutIntegrationNotice({ command: 'sudo -i' })).toBe("`sudo -i` started a shell without Tandem's integration: its commands are part of this block until it exits.");
    expect(shellWithoutIntegrationNotice({ command: 'su -', host: 'db1' })).toContain('`su -` on db1 started a shell');
  });

  it('shortens a long command line', () => {
    const notice = shellWithoutIntegrationNotice({ command: `docker exec -it ${'x'.repeat(100)} bash` });
    expect(notice).toMatch(/^`docker exec -it x+…` started/);
    expect(notice.length).toBeLessThan(170);
  });
});
