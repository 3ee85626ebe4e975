// Who is using the page.
//
// local mode: the user picks or types a name; the token is "dev:<name>" (the server accepts it
//   only on loopback). "/?user=<name>" signs in directly. The name is remembered in localStorage.
// aws mode: Cognito hosted UI, authorization-code flow with PKCE (no client secret in a page).
//   Tokens live in sessionStorage (this tab only) and are refreshed with the refresh token.
//   A generic OpenID Connect issuer (OidcAuth) runs the same flow against the endpoints its discovery
//   document names, and sends the ID token (its audience is this client).

const USER_KEY = "docchat.user";
const RECENT_KEY = "docchat.recentUsers";
const TOKENS_KEY = "docchat.tokens";
const PKCE_KEY = "docchat.pkce";

export class LocalAuth {
  constructor() {
    this.mode = "local";
    this.user = null;
  }

  /** Resolve the user from ?user= or storage; returns true when signed in. */
  restore() {
    const url = new URL(location.href);
    const fromUrl = url.searchParams.get("user");
    if (fromUrl !== null) {
      url.searchParams.delete("user");
      history.replaceState(null, "", url.pathname + url.search + url.hash);
      if (validUserName(fromUrl)) this.signIn(fromUrl);
      return Boolean(this.user);
    }
    const saved = localStorage.getItem(USER_KEY);
    if (saved && validUserName(saved)) this.user = saved;
    return Boolean(this.user);
  }

  signIn(name) {
    const user = name.trim();
    if (!validUserName(user)) throw new Error("Use 1–64 characters, without # / \\ or line breaks.");
    this.user = user;
    localStorage.setItem(USER_KEY, user);
    const recent = recentUsers().filter((u) => u !== user);
    localStorage.setItem(RECENT_KEY, JSON.stringify([user, ...recent].slice(0, 8)));
  }

  token() {
    return this.user ? `dev:${this.user}` : null;
  }

  async fresh() {
    return this.token();
  }

  signOut() {
    this.user = null;
    localStorage.removeItem(USER_KEY);
    location.assign("/");
  }
}

export function validUserName(name) {
  const n = String(name ?? "").trim();
  return n.length > 0 && n.length <= 64 && !/[#/\\\r\n\t]/.test(n);
}

export function recentUsers() {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]");
    return Array.isArray(list) ? list.filter(validUserName) : [];
  } catch {
    return [];
  }
}

export class CognitoAuth {
  constructor(config) {
    this.mode = "aws";
    this.domain = config.cognito_domain;
    this.clientId = config.client_id;
    this.redirectUri = `${location.origin}/`;
    this.tokens = null;
    this.user = null;
  }

  get configured() {
    return Boolean(this.domain && this.clientId);
  }

  /** Finish a redirect (?code=…) or load saved tokens; returns true when signed in. */
  async restore() {
    const url = new URL(location.href);
    const code = url.searchParams.get("code");
    if (code) {
      const state = url.searchParams.get("state");
      const saved = JSON.parse(sessionStorage.getItem(PKCE_KEY) || "null");
      sessionStorage.removeItem(PKCE_KEY);
      history.replaceState(null, "", (saved && saved.returnTo) || "/");
      if (!saved || saved.state !== state) throw new Error("Sign-in failed: the state did not match. Try again.");
      await this._token({ grant_type: "authorization_code", code, code_verifier: saved.verifier,
        redirect_uri: this.redirectUri });
      return true;
    }
    if (url.searchParams.get("error")) {
      const reason = url.searchParams.get("error_description") || url.searchParams.get("error");
      history.replaceState(null, "", "/");
      throw new Error(`Sign-in failed: ${reason}`);
    }
    this.tokens = JSON.parse(sessionStorage.getItem(TOKENS_KEY) || "null");
    if (this.tokens) this.user = claims(this.tokens.id_token || this.tokens.access_token);
    return Boolean(this.tokens);
  }

  /** Redirect to the hosted UI. */
  async signIn() {
    if (!globalThis.crypto?.subtle) throw new Error("Sign-in needs a secure (https) page.");
    const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
    const state = base64url(crypto.getRandomValues(new Uint8Array(16)));
    const challenge = base64url(new Uint8Array(await crypto.subtle.digest("SHA-256",
      new TextEncoder().encode(verifier))));
    sessionStorage.setItem(PKCE_KEY, JSON.stringify({ verifier, state, returnTo: location.hash ? `/${location.hash}` : "/" }));
    const q = new URLSearchParams({
      response_type: "code", client_id: this.clientId, redirect_uri: this.redirectUri,
      scope: "openid email profile", state, code_challenge: challenge, code_challenge_method: "S256",
    });
    location.assign(`${(await this.endpoints()).authorize}?${q}`);
  }

  /** Where the hosted UI lives. */
  async endpoints() {
    return { authorize: `${this.domain}/oauth2/authorize`, token: `${this.domain}/oauth2/token` };
  }

  token() {
    return this.tokens ? this.tokens.access_token : null;
  }

  /** The token, refreshed first when it expires within a minute. */
  async fresh() {
    if (this.tokens && this.tokens.expires_at - Date.now() < 60_000 && this.tokens.refresh_token) {
      try {
        await this._token({ grant_type: "refresh_token", refresh_token: this.tokens.refresh_token });
      } catch {
        this.tokens = null;
        sessionStorage.removeItem(TOKENS_KEY);
      }
    }
    return this.token();
  }

  async _token(params) {
    const response = await fetch((await this.endpoints()).token, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: this.clientId, ...params }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(`Sign-in failed: ${body.error_description || body.error || response.status}`);
    const refresh = body.refresh_token || (this.tokens && this.tokens.refresh_token);
    this.tokens = { access_token: body.access_token, id_token: body.id_token, refresh_token: refresh,
      expires_at: Date.now() + (body.expires_in || 3600) * 1000 };
    sessionStorage.setItem(TOKENS_KEY, JSON.stringify(this.tokens));
    this.user = claims(this.tokens.id_token || this.tokens.access_token);
  }

  signOut() {
    sessionStorage.removeItem(TOKENS_KEY);
    this.tokens = null;
    const q = new URLSearchParams({ client_id: this.clientId, logout_uri: this.redirectUri });
    location.assign(`${this.domain}/logout?${q}`);
  }
}

export class OidcAuth extends CognitoAuth {
  constructor(config) {
    super(config);
    this.issuer = String(config.oidc_issuer || "").replace(/\/+$/, "");
    this._endpoints = null;
  }

  get configured() {
    return Boolean(this.issuer && this.clientId);
  }

  /** The issuer's authorization / token / end-session endpoints, from its discovery document. */
  async endpoints() {
    if (!this._endpoints) {
      const r = await fetch(`${this.issuer}/.well-known/openid-configuration`, { cache: "no-store" });
      const doc = await r.json().catch(() => null);
      if (!r.ok || !doc || !doc.authorization_endpoint || !doc.token_endpoint) {
        throw new Error(`Sign-in failed: the identity provider's discovery document is unavailable (${r.status}).`);
      }
      this._endpoints = { authorize: doc.authorization_endpoint, token: doc.token_endpoint,
        logout: doc.end_session_endpoint || null };
    }
    return this._endpoints;
  }

  token() {
    return this.tokens ? this.tokens.id_token || this.tokens.access_token : null;
  }

  async signOut() {
    const idToken = this.tokens && this.tokens.id_token;
    sessionStorage.removeItem(TOKENS_KEY);
    this.tokens = null;
    const end = await this.endpoints().then((e) => e.logout).catch(() => null);
    if (!end) { location.assign("/"); return; }
    const q = new URLSearchParams({ client_id: this.clientId, post_logout_redirect_uri: this.redirectUri });
    if (idToken) q.set("id_token_hint", idToken);
    location.assign(`${end}?${q}`);
  }
}

/** Display name from a JWT's payload (no verification here: the server verifies every call). */
function claims(jwt) {
  try {
    const part = jwt.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const json = new TextDecoder().decode(Uint8Array.from(atob(part), (c) => c.charCodeAt(0)));
    const c = JSON.parse(json);
    return c.email || c["cognito:username"] || c.preferred_username || c.username || c.sub || "signed in";
  } catch {
    return "signed in";
  }
}

function base64url(bytes) {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
