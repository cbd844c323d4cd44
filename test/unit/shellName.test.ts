import { describe, expect, it } from 'vitest';
import { PromptInput } from '../../src/main/panes/promptInput';
import { promptShellAt, promptShellOf } from '../../src/main/panes/shellName';
import type { RemoteShellInfo } from '../../src/main/osc/marks';

const remote = (shell: string): RemoteShellInfo => ({ user: 'deploy', host: 'db1', os: 'Linux', arch: 'x86_64', shell });

describe('promptShellAt: whose line editor the keys reach', () => {
  it('is the remote login shell by its basename while the pane is on one, whatever the local shell', () => {
    expect(promptShellAt(remote('/usr/bin/zsh'), '/bin/bash')).toBe('zsh');
    expect(promptShellAt(remote('/usr/local/bin/fish'), '/bin/bash')).toBe('fish');
    expect(promptShellAt(remote('-bash'), '/usr/bin/fish')).toBe('bash');
    expect(promptShellAt(remote('/bin/dash'), '/bin/bash')).toBe('other');
    expect(promptShellAt(remote(''), '/bin/zsh')).toBe('other');
  });

  it('is the local shell again once the pane is off the remote one', () => {
    expect(promptShellAt(undefined, '/usr/bin/fish')).toBe('fish');
    expect(promptShellAt(undefined, '/bin/bash')).toBe(promptShellOf('/bin/bash'));
  });

  it('decides how a half-typed line is cleared before a step is typed (fish and readline differ)', () => {
    let on: RemoteShellInfo | undefined = remote('/usr/bin/fish');
    const input = new PromptInput({ shell: () => promptShellAt(on, '/bin/bash'), integration: () => true, atPrompt: () => true, programReadsKeys: () => false, requested: () => undefined });
    input.promptShown();
    input.fromUser('half');
    expect(input.commandKeys('uname -a', false).line).toBe('\x05\x15uname -a');
    on = remote('/bin/zsh');
    input.promptShown();
    input.fromUser('half');
    expect(input.commandKeys('uname -a', false).line).toBe('\x18\x0buname -a');
    on = undefined;
    input.promptShown();
    input.fromUser('half');
    expect(input.commandKeys('uname -a', false).line).toBe('\x05\x15uname -a');
  });
});
