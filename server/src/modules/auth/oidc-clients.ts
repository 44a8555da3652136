import type { OidcProvider } from '@streamshop/contract/auth.ts';
import * as oidc from 'openid-client';
import type { Config, OidcSettings } from '../../config.ts';
import { FLOW_TTL_SEC, type PendingFlow } from './oidc-cookies.ts';
import { OidcFlowError } from './oidc-flow-error.ts';

/** OpenID Connect clients: one per configured provider (Google, Replit), discovered lazily. */

export const OIDC_SCOPE = 'openid email profile';
export const PROVIDER_LABELS: Record<OidcProvider, string> = { google: 'Google', replit: 'Replit' };

/** Discovered provider metadata is reused this long, then discovered again. */
const DISCOVERY_TTL_MS = 24 * 60 * 60 * 1000;
/** Seconds any single request to a provider may take. */
const PROVIDER_TIMEOUT_SEC = 10;

// ---------------------------------------------------------------------------------------------
// Provider clients.

/** What this app takes from a provider's ID token and userinfo. */
export interface OidcIdentity {
  provider: OidcProvider;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  preferredUsername: string | undefined;
  name: string | undefined;
  givenName: string | undefined;
  familyName: string | undefined;
  picture: string | undefined;
}

/**
 * openid-client refuses plain-http providers. That is relaxed only for a provider on this very
 * machine (a local test or development identity provider), never for a remote one.
 */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/**
 * client_secret_basic when the provider offers it (the OAuth default, and what Google and Replit
 * list), else client_secret_post; decided per request from the discovered metadata.
 */
function clientSecretAuth(clientSecret: string): oidc.ClientAuth {
  const basic = oidc.ClientSecretBasic(clientSecret);
  const post = oidc.ClientSecretPost(clientSecret);
  return (as, client, body, headers) => {
    const methods = as.token_endpoint_auth_methods_supported;
    const useBasic =
      !methods || methods.includes('client_secret_basic') || !methods.includes('client_secret_post');
    return (useBasic ? basic : post)(as, client, body, headers);
  };
}

const text = (claims: Record<string, unknown>, name: string): string | undefined => {
  const value = claims[name];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};

/** Network and timeout failures, as opposed to a provider's OAuth error answer. */
function isTransportError(error: unknown): boolean {
  return !(
    error instanceof oidc.ResponseBodyError ||
    error instanceof oidc.AuthorizationResponseError ||
    error instanceof oidc.WWWAuthenticateChallengeError
  );
}

/** Discovers and caches each configured provider, and runs the two halves of a sign-in. */
export class OidcClients {
  readonly #settings: Config['oidc'];
  readonly #publicUrl: string;
  readonly #discovered = new Map<OidcProvider, { at: number; configuration: Promise<oidc.Configuration> }>();

  constructor(settings: Config['oidc'], publicUrl: string) {
    this.#settings = settings;
    this.#publicUrl = publicUrl.replace(/\/$/, '');
  }

  isConfigured(provider: OidcProvider): boolean {
    return this.#settings[provider] !== undefined;
  }

  redirectUri(provider: OidcProvider): string {
    return `${this.#publicUrl}/api/auth/${provider}/callback`;
  }

  /** Builds the authorization URL and the flow to keep until the callback. */
  async start(provider: OidcProvider): Promise<{ url: URL; flow: PendingFlow }> {
    const configuration = await this.#configuration(provider);
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const flow: PendingFlow = {
      provider,
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier,
      expiresAt: Date.now() + FLOW_TTL_SEC * 1000,
    };
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri(provider),
      scope: OIDC_SCOPE,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    return { url, flow };
  }

  /**
   * Checks the authorization response against the flow (state, issuer), redeems the code with the
   * PKCE verifier, validates the ID token (signature, audience, nonce) and reads the claims,
   * asking the userinfo endpoint for those the ID token leaves out.
   * @param search the callback's raw query string, as the provider sent it
   * @param flow the flow from the cookie; undefined when it was missing, forged or stale
   */
  async finish(provider: OidcProvider, search: string, flow: PendingFlow | undefined): Promise<OidcIdentity> {
    const params = new URLSearchParams(search);
    const error = params.get('error');
    if (error) {
      throw new OidcFlowError(
        error === 'access_denied' ? 'access_denied' : 'provider_error',
        `${provider} answered error=${error.slice(0, 64)}`,
      );
    }
    if (!flow) throw new OidcFlowError('expired', `no valid ${provider} flow cookie`);
    if (params.get('state') !== flow.state) throw new OidcFlowError('state_mismatch', 'state does not match');

    const configuration = await this.#configuration(provider);
    const currentUrl = new URL(this.redirectUri(provider));
    currentUrl.search = search;
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      if (isTransportError(error)) this.forget(provider);
      throw new OidcFlowError('token_exchange_failed', `code exchange with ${provider} failed`, {
        cause: error,
      });
    }
    const idToken = tokens.claims();
    if (!idToken) throw new OidcFlowError('token_exchange_failed', `${provider} returned no ID token`);

    let claims: Record<string, unknown> = idToken;
    const lacksProfile = !text(claims, 'email') || !(text(claims, 'name') || text(claims, 'given_name'));
    if (lacksProfile && configuration.serverMetadata().userinfo_endpoint) {
      try {
        const userinfo = await oidc.fetchUserInfo(configuration, tokens.access_token, idToken.sub);
        // The ID token wins where both speak.
        claims = { ...userinfo, ...idToken };
      } catch (error) {
        if (!text(claims, 'email')) {
          throw new OidcFlowError('token_exchange_failed', `userinfo from ${provider} failed`, {
            cause: error,
          });
        }
      }
    }

    const emailVerified = claims.email_verified;
    return {
      provider,
      subject: idToken.sub,
      email: text(claims, 'email'),
      // Some providers send the string "true".
      emailVerified: emailVerified === true || emailVerified === 'true',
      preferredUsername: text(claims, 'preferred_username'),
      name: text(claims, 'name'),
      givenName: text(claims, 'given_name'),
      familyName: text(claims, 'family_name'),
      picture: text(claims, 'picture'),
    };
  }

  /** Drops a provider's discovered metadata so the next sign-in discovers it again. */
  forget(provider: OidcProvider): void {
    this.#discovered.delete(provider);
  }

  #configuration(provider: OidcProvider): Promise<oidc.Configuration> {
    const settings = this.#settings[provider];
    if (!settings) {
      return Promise.reject(new OidcFlowError('provider_unavailable', `${provider} is not configured`));
    }
    const cached = this.#discovered.get(provider);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.configuration;
    const entry = { at: Date.now(), configuration: discover(settings) };
    this.#discovered.set(provider, entry);
    // A failed discovery is not cached: the next sign-in tries again.
    entry.configuration.catch(() => {
      if (this.#discovered.get(provider) === entry) this.#discovered.delete(provider);
    });
    return entry.configuration;
  }
}

async function discover(settings: OidcSettings): Promise<oidc.Configuration> {
  const issuer = new URL(settings.issuer);
  const execute = isLoopbackHttp(issuer) ? [oidc.allowInsecureRequests] : [];
  try {
    const configuration = await oidc.discovery(
      issuer,
      settings.clientId,
      settings.clientSecret,
      clientSecretAuth(settings.clientSecret),
      { execute, timeout: PROVIDER_TIMEOUT_SEC },
    );
    configuration.timeout = PROVIDER_TIMEOUT_SEC;
    return configuration;
  } catch (error) {
    throw new OidcFlowError('provider_unavailable', `discovery of ${issuer.origin} failed`, { cause: error });
  }
}
