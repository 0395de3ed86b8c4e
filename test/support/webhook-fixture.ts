import { testFixture } from '../harness.js';

/**
 * The test fixture plus subscriptions the webhook tests address by id: one per subsidiary and
 * tenant for the isolation cases, and spares for the auth cases of routes that change or
 * delete what they name.
 */
export function webhookFixture(): any {
  const fixture = testFixture();
  const prairie = fixture.Tenants.find((tenant: any) => tenant.Id === 'tn_prairie');
  const harbor = fixture.Tenants.find((tenant: any) => tenant.Id === 'tn_harbor');
  const hook = (id: string, subsidiaryId: string, extra: Record<string, unknown> = {}) => ({
    Id: id,
    Name: `Hook ${id}`,
    Url: `http://127.0.0.1:9/hooks/${id}`,
    SubsidiaryId: subsidiaryId,
    EventTypes: ['trip.*', 'load.*'],
    ...extra,
  });
  prairie.Webhooks.push(hook('wh_kc_auth', 'sub_kc'), hook('wh_kc_delete', 'sub_kc'), hook('wh_dal_ops', 'sub_dal'));
  harbor.Webhooks = [...(harbor.Webhooks ?? []), hook('wh_harbor_ops', 'sub_harbor_main')];
  return fixture;
}
