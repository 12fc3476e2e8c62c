// A stand-in for the stack's Cognito user pool: oidc-provider (a certified OpenID
// provider) on loopback with one public client (dochiya's callback, PKCE) and its
// development login form, where any login name signs in as that test user.
// usage: OP_PORT=… CALLBACK=http://127.0.0.1:…/oauth/callback node stand_in_op.mjs
import Provider from 'oidc-provider';

const port = Number(process.env.OP_PORT);
const callback = process.env.CALLBACK;
const issuer = `http://127.0.0.1:${port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'dochiya',
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      redirect_uris: [callback],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  async findAccount(_ctx, id) {
    return {
      accountId: id,
      async claims() {
        return { sub: id, name: 'Test Person 테스트', email: `${id}@example.test` };
      },
    };
  },
  claims: { openid: ['sub'], profile: ['name'], email: ['email'] },
  // Put the profile claims in the ID token (dochiya reads the display name there).
  conformIdTokenClaims: false,
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => true },
});
provider.proxy = false;
provider.listen(port, '127.0.0.1', () => console.log(`stand-in OpenID provider at ${issuer}`));
