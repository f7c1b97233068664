import { namespaceIdKey } from '@sked/query';

const SEP = '\u0000';
const pad = (n: number): string => String(n).padStart(12, '0');

/** Identity of a job version in `jobVersions` (and of a submission in `submissions`). */
export function versionKey(namespace: string, jobId: string, version: number): string {
  // the job's key cannot collide (namespaceIdKey), and the fixed-width version ends the key
  return `${namespaceIdKey(namespace, jobId)}${SEP}${pad(version)}`;
}

/** Group key of everything belonging to a job. */
export function jobKey(namespace: string, jobId: string): string {
  return namespaceIdKey(namespace, jobId);
}
