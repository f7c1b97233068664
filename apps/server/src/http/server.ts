/** Options of startServer (placeholder until the core lands). */
export interface StartServerOptions {
  readonly bind?: string;
  readonly schedulerPort?: number;
  readonly region?: string;
  readonly nodes?: number;
  readonly datacenter?: string;
  readonly acl?: boolean;
  readonly aclTokens?: string;
  readonly demo?: boolean;
  readonly maxBody?: number;
  readonly enableRawExec?: boolean;
  readonly heartbeatMs?: number;
}
