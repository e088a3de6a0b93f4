import { type z } from 'zod';
import { annotationListResponseSchema, annotationResponseSchema } from '../../src/contracts/annotations';
import { emailStartResponseSchema, powChallengeSchema, sessionResponseSchema } from '../../src/contracts/auth';
import { errorResponseSchema, okResponseSchema } from '../../src/contracts/common';
import {
  impersonateResponseSchema,
  meResponseSchema,
  mfaSetupResponseSchema,
  subscriptionListResponseSchema,
  subscriptionResponseSchema,
  userFlagsResponseSchema,
} from '../../src/contracts/me';
import { invitationResponseSchema, memberListResponseSchema, memberResponseSchema } from '../../src/contracts/members';
import {
  createWorkspaceResponseSchema,
  deleteWorkspaceResponseSchema,
  flagsResponseSchema,
  workspaceListResponseSchema,
  workspaceResponseSchema,
} from '../../src/contracts/workspaces';
import { LOGIN_COOKIE } from '../auth/cookies';
import { addMember, signIn, solvedToken, TEST_ORIGIN, uniqueEmail } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';

/** Every answer the client reads must parse with the schema it uses: a missing or mistyped field fails here. */
describe('response contracts', () => {
  const t = withTestApp({ POW_MAX_NUMBER: 2000, RATE_LIMIT_PER_IP: 1000 });

  async function call<S extends z.ZodType>(
    schema: S,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ): Promise<z.output<S>> {
    const res = await t.app.inject({ method, url, headers, payload });
    expect(res.statusCode).toBeLessThan(300);
    return schema.parse(res.json());
  }

  it('sign-in answers', async () => {
    const challenge = await call(powChallengeSchema, 'GET', '/api/login/challenge', {});
    expect(challenge.algorithm).toBe('SHA-256');
    const api = { origin: TEST_ORIGIN, 'x-requested-with': 'openrate' };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login/email/start',
      headers: api,
      payload: { email: uniqueEmail(), token: await solvedToken(t) },
    });
    const { token } = emailStartResponseSchema.parse(res.json());
    const wrong = await t.app.inject({
      method: 'GET',
      url: `/api/login/email/${token}/check?code=WRONGWRONG`,
      headers: api,
      cookies: { [LOGIN_COOKIE]: res.cookies.find((c) => c.name === LOGIN_COOKIE)!.value },
    });
    expect(errorResponseSchema.parse(wrong.json())).toEqual({ error: 'invalid_code' });
    expect(sessionResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/session' })).json())).toEqual({
      status: 'unauthenticated',
    });
  });

  it('account, workspace, member, annotation and staff answers', async () => {
    const user = await signIn(t);
    const h = user.headers;
    await call(sessionResponseSchema, 'GET', '/session', h);
    await call(meResponseSchema, 'PATCH', '/api/me', h, { name: 'Contract Tester' });
    await call(userFlagsResponseSchema, 'GET', '/api/me/flags', h);
    await call(mfaSetupResponseSchema, 'POST', '/api/me/mfa/setup', h);
    const { id } = await call(createWorkspaceResponseSchema, 'POST', '/api/workspaces', h, { name: 'Contracts' });
    const me = await call(meResponseSchema, 'GET', '/api/me', h);
    expect(me.workspaces.map((w) => w.id)).toContain(id);
    await call(workspaceResponseSchema, 'GET', `/api/workspaces/${id}`, h);
    await call(workspaceResponseSchema, 'PUT', `/api/workspaces/${id}/settings`, h, { name: 'C', locale: 'en_GB' });
    await call(flagsResponseSchema, 'GET', `/api/workspaces/${id}/flags`, h);
    await call(okResponseSchema, 'POST', `/api/workspaces/${id}/activation-request`, h);
    const invited = await call(invitationResponseSchema, 'POST', `/api/workspaces/${id}/members`, h, {
      email: uniqueEmail(),
    });
    const colleague = await signIn(t);
    await addMember(t, id, colleague.userId, 'member');
    await call(memberResponseSchema, 'PUT', `/api/workspaces/${id}/members/${colleague.userId}/role`, h, {
      role: 'admin',
    });
    await call(memberResponseSchema, 'PUT', `/api/workspaces/${id}/members/${colleague.userId}/name`, h, {
      name: 'Col League',
    });
    await call(memberListResponseSchema, 'GET', `/api/workspaces/${id}/members`, h);
    await call(okResponseSchema, 'DELETE', `/api/workspaces/${id}/invitations/${invited.data.id}`, h);
    await call(okResponseSchema, 'DELETE', `/api/workspaces/${id}/members`, h, { member_id: colleague.userId });
    const note = { message: 'm', date_start: '2024-01-01', date_end: '2024-01-01' };
    const created = await call(annotationResponseSchema, 'POST', `/api/workspaces/${id}/annotations`, h, note);
    await call(annotationListResponseSchema, 'GET', `/api/workspaces/${id}/annotations`, h);
    await call(okResponseSchema, 'DELETE', `/api/workspaces/${id}/annotations/${created.data.id}`, h);
    const sub = await call(subscriptionResponseSchema, 'POST', '/api/reporting-subscriptions', h, {
      payload: { type: 'weeklySummary', workspaceId: id },
    });
    await call(subscriptionListResponseSchema, 'GET', '/api/reporting-subscriptions', h);
    await call(okResponseSchema, 'DELETE', `/api/reporting-subscriptions/${sub.data.id}`, h);
    await call(deleteWorkspaceResponseSchema, 'DELETE', `/api/workspaces/${id}`, h);

    const staff = await signIn(t, uniqueEmail('staff').replace('@example.com', '@openrate.app'));
    await call(workspaceListResponseSchema, 'GET', '/api/admin/workspaces', staff.headers);
    await call(impersonateResponseSchema, 'POST', '/api/admin/impersonate', staff.headers, { userId: user.userId });
  });
});
