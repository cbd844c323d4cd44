/**
 * "Allow for this session": command shapes the user has allowed until the window closes. A
 * grant is a cached human answer, consulted only where the policy says "ask"; it never
 * overrides a deny, a hook or a RED block.
 */
export interface SessionGrant {
  shape: string;
  /** The command the user allowed, to show in the list of grants. */
  example: string;
  grantedAt: number;
}

export class SessionGrants {
  private readonly grants = new Map<string, SessionGrant>();

  grant(shape: string, example: string): void {
    if (!this.grants.has(shape)) this.grants.set(shape, { shape, example, grantedAt: Date.now() });
  }

  has(shape: string): boolean {
    return this.grants.has(shape);
  }

  revoke(shape: string): boolean {
    return this.grants.delete(shape);
  }

  list(): SessionGrant[] {
    return [...this.grants.values()];
  }
}
