/** What `svc owner`'s operator subcommands print: the daemon's answers as text (--json prints them as they are). */
import type { ProjectUsage, TenantList } from '../../../client/index.js';
import { printable } from '../../../present/text.js';
import { table } from '../../cmdutil/table.js';

export function tenantsText(list: TenantList): string {
  if (list.tenants.length === 0) return 'no tenants\n';
  const rows = list.tenants.map((t) => [
    t.id,
    t.name,
    t.owners.join(', ') || '(none)',
    t.projects.map((p) => `${p.name} (${p.id})`).join(', ') || '-',
    t.createdAt,
  ]);
  return table(['TENANT', 'NAME', 'OWNERS', 'PROJECTS', 'CREATED'], rows);
}

export function usageText(usage: ProjectUsage): string {
  if (usage.usage.length === 0) return `project ${printable(usage.projectId)}: no usage counted yet\n`;
  return table(
    ['PERIOD', 'METRIC', 'COUNT'],
    usage.usage.map((u) => [u.period, u.metric, String(u.count)]),
  );
}
