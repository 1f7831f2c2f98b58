/**
 * The cookie gateway's page (src/server/gateway/page.ts): a project whose webhook a receiver
 * disabled (410 Gone) carries a note naming the reason and the fix; an active webhook, or one the
 * owner disabled, carries none.
 */
import { describe, expect, it } from 'vitest';
import type { CustomerWebhookConfig } from '../../src/core/store.js';
import { ownerPage, type PageProject } from '../../src/server/gateway/page.js';

const session = {
  subject: 'did:web:owner.example',
  createdAt: '2026-11-29T00:00:00Z',
  expiresAt: '2026-11-29T00:30:00Z',
  absoluteExpiresAt: '2026-11-29T12:00:00Z',
};
const project = { id: 'prj_abc', tenantId: 'tnt_1', name: 'Agents', createdAt: '2026-11-01T00:00:00Z' };
const hook = (over: Partial<CustomerWebhookConfig>): CustomerWebhookConfig => ({
  id: 'whk_1',
  url: 'https://hooks.example/in',
  createdAt: '2026-11-01T00:00:00Z',
  active: true,
  disabledAt: null,
  disabledReason: null,
  ...over,
});
const page = (webhook: CustomerWebhookConfig | null) => {
  const p: PageProject = { project, watches: [], watchCount: 0, webhook };
  return ownerPage('https://owners.example', { session, projects: [p] });
};

describe('the owner page and a disabled webhook', () => {
  it('names the reason of a receiver-disabled webhook and the fix', () => {
    const reason = 'the receiver answered 410 Gone at 2026-11-29T01:02:03Z to the delivery of evt_7; set a webhook again to resume deliveries';
    const html = page(hook({ active: false, disabledAt: '2026-11-29T01:02:03Z', disabledReason: reason }));
    expect(html).toContain('Webhook disabled:');
    expect(html).toContain(reason);
    expect(html).toContain('svc owner webhook set --project prj_abc --url &lt;https URL&gt;');
  });

  it('says nothing of an active webhook, of one the owner disabled, or of none', () => {
    for (const webhook of [hook({}), hook({ active: false, disabledAt: '2026-11-29T01:02:03Z' }), null])
      expect(page(webhook)).not.toContain('Webhook disabled');
  });
});
