/** `svc owner …` (operator): the work of its commands, loaded when one runs (their options: command.ts). */
import { usageError } from '../../cmdutil/errors.js';
import type { CliIo } from '../../cmdutil/io.js';
import type { DaemonOptions } from '../../cmdutil/daemon-options.js';
import { printable } from '../../../present/text.js';
import { withDaemon } from '../../cmdutil/daemon.js';
import { tenantsText, usageText } from './render.js';

/** A required option's value, trimmed; empty is a usage error (commander lets `--name ''` through). */
function required(value: string | undefined, option: string): string {
  const text = value?.trim() ?? '';
  if (text === '') throw usageError(`${option} must not be empty`);
  return text;
}

export async function tenantsAction(io: CliIo, setExit: (code: number) => void, options: DaemonOptions): Promise<void> {
  await withDaemon(io, options, setExit, (client) => client.listTenants(), tenantsText);
}

export async function tenantCreateAction(io: CliIo, setExit: (code: number) => void, options: DaemonOptions & { name: string; owner: string }): Promise<void> {
  const name = required(options.name, '--name');
  const owner = required(options.owner, '--owner');
  await withDaemon(
    io,
    { ...options, quiet: false },
    setExit,
    (client) => client.createTenant({ name, owner }),
    ({ tenant }) =>
      options.quiet ? `${printable(tenant.id)}\n` : `tenant ${printable(tenant.id)} (${printable(tenant.name)}) created; owner ${printable(tenant.owner)}\n`,
  );
}

export async function projectCreateAction(
  io: CliIo,
  setExit: (code: number) => void,
  options: DaemonOptions & { tenant: string; name: string },
): Promise<void> {
  const tenant = required(options.tenant, '--tenant');
  const name = required(options.name, '--name');
  await withDaemon(
    io,
    { ...options, quiet: false },
    setExit,
    (client) => client.createProject(tenant, name),
    ({ project }) =>
      options.quiet
        ? `${printable(project.id)}\n`
        : `project ${printable(project.id)} (${printable(project.name)}) created in tenant ${printable(project.tenantId)}\n`,
  );
}

export async function attachAction(io: CliIo, setExit: (code: number) => void, options: DaemonOptions & { tenant: string; subject: string }): Promise<void> {
  const tenant = required(options.tenant, '--tenant');
  const subject = required(options.subject, '--subject');
  await withDaemon(
    io,
    options,
    setExit,
    (client) => client.attachOwner(tenant, subject),
    (owners) => `tenant ${printable(owners.tenantId)} owners: ${owners.owners.map((o) => printable(o)).join(', ')}\n`,
  );
}

export async function detachAction(io: CliIo, setExit: (code: number) => void, options: DaemonOptions & { tenant: string; subject: string }): Promise<void> {
  const tenant = required(options.tenant, '--tenant');
  const subject = required(options.subject, '--subject');
  await withDaemon(
    io,
    options,
    setExit,
    async (client) => {
      await client.removeOwner(tenant, subject);
      return { tenantId: tenant, subject, detached: true };
    },
    () => `${printable(subject)} is no longer an owner of tenant ${printable(tenant)}\n`,
  );
}

export async function usageAction(io: CliIo, setExit: (code: number) => void, options: DaemonOptions & { project: string }): Promise<void> {
  const project = required(options.project, '--project');
  await withDaemon(io, options, setExit, (client) => client.projectUsage(project), usageText);
}
