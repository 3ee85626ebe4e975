// docchat in the browser: boot, sign-in, and the glue between the panels.
import { Api, ApiError, Unreachable, sleep } from "./api.js";
import { CognitoAuth, LocalAuth, OidcAuth, recentUsers } from "./auth.js";
import { ChatPane } from "./chat.js";
import { DocumentsPanel } from "./documents.js";
import { $, announce, clear, confirmDialog, h } from "./dom.js";
import { SessionsPanel } from "./sessions.js";
import { ChatSearch, ChatTools } from "./chat_tools.js";
import { PageViewer } from "./viewer.js";
import { ReviewPanel, ReviewSharing } from "./review.js";
import { SharedList, ShareControl, sharedRoute, showReadOnly } from "./share.js";
import { DocPicker } from "./docpicker.js";
import { Attachments } from "./attach.js";

const PROJECT_KEY = "docchat.project";
const DEFAULT_PROJECT = "My documents";
const LAST_CHAT_KEY = "docchat.lastChat";

// ---- the "cannot reach the server" banner ------------------------------------------------------

const banner = {
  down: false,
  probing: false,
  show(text) {
    const el = $("#banner");
    el.textContent = text;
    el.hidden = false;
  },
  hide() {
    $("#banner").hidden = true;
  },
  /** Called by the API client after every request: false = no answer at all. */
  reachable(ok) {
    if (ok) {
      if (banner.down) { banner.down = false; banner.hide(); }
      return;
    }
    banner.down = true;
    banner.show(`Cannot reach the docchat server at ${location.host}. Is it still running? Retrying…`);
    banner.probe();
  },
  async probe() {
    if (banner.probing) return;
    banner.probing = true;
    try {
      for (let i = 0; banner.down; i++) {
        await sleep(Math.min(1000 * 2 ** i, 10000));
        try {
          const r = await fetch("/healthz", { cache: "no-store" });
          if (r.ok) { banner.down = false; banner.hide(); }
        } catch {
          // still down
        }
      }
    } finally {
      banner.probing = false;
    }
  },
};

function showError(err, { quiet = false } = {}) {
  if (err instanceof Unreachable) return; // the banner says it
  if (quiet) return;
  const el = $("#banner");
  el.textContent = err instanceof ApiError ? `${err.message} (HTTP ${err.status})` : String(err.message || err);
  el.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { if (!banner.down) el.hidden = true; }, 6000);
}

// ---- boot --------------------------------------------------------------------------------------

async function loadConfig() {
  for (let i = 0; ; i++) {
    try {
      const r = await fetch("/v1/config", { cache: "no-store" });
      if (r.ok) { banner.hide(); return await r.json(); }
      banner.show(`The server answered /v1/config with HTTP ${r.status}. Retrying…`);
    } catch {
      banner.show(`Cannot reach the docchat server at ${location.host}. Is it running? Retrying…`);
    }
    await sleep(Math.min(1000 * 2 ** i, 10000));
  }
}

async function boot() {
  const config = await loadConfig();
  const Aws = config.oidc_issuer ? OidcAuth : CognitoAuth;
  const auth = config.mode === "aws" ? new Aws(config) : new LocalAuth();
  if (config.mode !== "aws") auth.defaultUser = config.default_user || null;
  let signedIn = false;
  try {
    signedIn = await auth.restore();
  } catch (err) {
    showSignIn(auth, err.message);
    return;
  }
  if (!signedIn) { showSignIn(auth); return; }
  startApp(config, auth);
}

function showSignIn(auth, error = "") {
  $("#app").hidden = true;
  $("#signin").hidden = false;
  if (auth.mode === "aws") {
    $("#signin-cognito").hidden = false;
    $("#signin-cognito-error").textContent = error || (auth.configured ? "" : "Sign-in is not configured on this server.");
    const btn = $("#signin-cognito-button");
    btn.disabled = !auth.configured;
    btn.onclick = () => auth.signIn().catch((err) => { $("#signin-cognito-error").textContent = err.message; });
    btn.focus();
    return;
  }
  const form = $("#signin-form");
  form.hidden = false;
  const input = $("#signin-name");
  // offer the CLI's default user (docchat ingest/ask act as it), so files from both land with one user
  if (!input.value && auth.defaultUser) input.value = auth.defaultUser;
  const recent = $("#signin-recent");
  clear(recent);
  const names = recentUsers();
  if (names.length) {
    recent.append(h("span.muted.small", { text: "Recent: " }));
    for (const name of names) {
      recent.append(h("button.chip", { type: "button", onclick: () => { input.value = name; form.requestSubmit(); } }, name));
    }
  }
  form.onsubmit = (e) => {
    e.preventDefault();
    try {
      auth.signIn(input.value);
    } catch (err) {
      $("#signin-error").textContent = err.message;
      return;
    }
    location.reload();
  };
  input.focus();
}

// ---- the signed-in app ------------------------------------------------------------------------

function startApp(config, auth) {
  $("#signin").hidden = true;
  $("#app").hidden = false;
  $("#user-name").textContent = auth.user;
  $("#user-name-narrow").textContent = auth.user;
  $("#sign-out").onclick = () => auth.signOut();
  $("#sign-out-narrow").onclick = () => auth.signOut();

  const api = new Api(() => auth.fresh(), {
    onReachable: banner.reachable,
    onUnauthorized: () => {
      if (auth.mode === "aws") showSignIn(auth, "Your sign-in expired. Please sign in again.");
    },
  });
  const state = { projects: [], projectId: null };
  const storageKey = `${PROJECT_KEY}:${auth.user}`;
  const lastChatKey = `${LAST_CHAT_KEY}:${auth.user}`;
  const forgetChat = (id) => { if (localStorage.getItem(lastChatKey) === id) localStorage.removeItem(lastChatKey); };
  const cleanUrl = () => history.replaceState(null, "", location.pathname + location.search);

  // issue 16: a share link (/s/<id>) opens that chat read-only for the user it is shared with
  let sharedId = sharedRoute();
  const share = new ShareControl({ api, before: $("#user-name"), onError: showError });
  const sharedList = new SharedList({ api, after: $("#new-chat"), currentId: sharedId });
  sharedList.load();

  const viewer = new PageViewer({ api, dpi: config.render_dpi });
  const review = new ReviewPanel({ api, dialog: $("#review"), getProjectId: () => state.projectId, onError: showError });
  $("#open-review").onclick = () => review.open();
  new ReviewSharing({ api, review, getProjectId: () => state.projectId, onError: showError }).loadShared();
  const layout = wireLayout();

  const sessions = new SessionsPanel({
    api, list: $("#session-list"), status: $("#session-status"),
    onOpen: (id) => { route(id); layout.closePanels(); },
    onDeleted: (id) => {
      forgetChat(id);
      // the open chat was deleted: a new chat, the address replaced (Back must not lead to the deleted chat);
      // another chat was deleted: the open chat and its address stay
      if (chat.sessionId === id || sessions.currentId === id) { cleanUrl(); applyRoute(); }
    },
    onError: showError,
  });

  const tools = new ChatTools({
    api, root: $("#chat-tools"), pin: $("#pin-chat"), exportButton: $("#export-chat"),
    onPinned: () => sessions.reset(), onError: showError,
  });
  new ChatSearch({
    api, input: $("#chat-search-input"), results: $("#chat-search-results"), list: $("#session-list"),
    onOpen: (id) => { route(id); layout.closePanels(); }, onError: showError,
  });

  const chat = new ChatPane({
    api, messages: $("#messages"), input: $("#composer-input"), form: $("#composer"),
    send: $("#send"), stop: $("#stop"),
    getProjectId: () => state.projectId,
    onCitation: (c, all) => viewer.open(c, all),
    onSessionCreated: (s) => {
      tools.show(s.session_id, false);
      sessions.currentId = s.session_id;
      share.setChat(s.session_id, "owner");
      sessions.upsert({ session_id: s.session_id, title: s.title, updated_at: s.created_at });
      history.replaceState(null, "", `#s=${encodeURIComponent(s.session_id)}`);
      localStorage.setItem(lastChatKey, s.session_id);
    },
    onMissing: (id) => { forgetChat(id); sessions.select(null); cleanUrl(); },
    onTurnDone: async (id) => {
      // the server titles a chat after its first exchange: pick the title up
      try {
        const s = await api.get(`/v1/sessions/${encodeURIComponent(id)}`);
        sessions.upsert({ session_id: id, title: s.title, updated_at: s.updated_at });
      } catch {
        // keep the old title
      }
    },
    onSessionInfo: (info) => {
      share.setChat(info && info.session_id, info && info.access);
      picker.setSession(info);
      if (info && info.access === "viewer") { showReadOnly(info); return; }  // no pin/export/share for a viewer
      if (info && sharedId === info.session_id) {
        // the owner opened their own share link: the ordinary address of the chat
        sharedId = null;
        history.replaceState(null, "", `/#s=${encodeURIComponent(info.session_id)}`);
      }
      if (info && info.session_id === chat.sessionId) tools.show(info.session_id, info.pinned);
      // show the documents of the project this chat belongs to
      const pid = info && info.project_id;
      if (pid && pid !== state.projectId && state.projects.some((p) => p.project_id === pid)) {
        $("#project-select").value = pid;
        setProject(pid);
      }
    },
    onError: showError,
  });

  // issue 16: the chat's documents (all of the project, or a selection) and files attached from the message box
  const picker = new DocPicker({ api, getProjectId: () => state.projectId, onError: showError });
  const attachments = new Attachments({
    api, maxBytes: config.max_upload_bytes,
    ensureProject: () => defaultProject(true),
    onSearchable: async (documentId, fileName) => {
      await picker.include(documentId, fileName);
      // show it in the documents panel (a reload of the list would cut the panel's own uploads short)
      if (!documents.rows.has(documentId) && !documents.uploading) documents.load(state.projectId);
    },
    onError: showError,
  });
  chat.beforeSubmit = () => attachments.ready();
  chat.afterSubmit = () => attachments.sent();
  chat.beforeAsk = (sessionId, created) => picker.beforeAsk(sessionId, created);

  const documents = new DocumentsPanel({
    api, list: $("#document-list"), dropzone: $("#dropzone"), fileInput: $("#file-input"),
    maxBytes: config.max_upload_bytes, user: auth.user,
    // the first upload creates a project; the panel keeps its in-flight rows (no reload)
    ensureProject: () => defaultProject(false),
    onError: showError,
  });

  // an upload sent before the project list has arrived waits for it (it goes to the project the app then
  // selects, not to a new one), and files sent together create one default project, not one each
  let projectsLoaded = null;
  let creatingDefault = null;
  async function defaultProject(reload) {
    await projectsLoaded;
    if (state.projectId) return state.projectId;
    creatingDefault ||= createProject(DEFAULT_PROJECT, { reload }).finally(() => { creatingDefault = null; });
    return creatingDefault;
  }

  async function loadProjects() {
    try {
      const body = await api.get("/v1/projects");
      state.projects = Array.isArray(body) ? body : body.items || body.projects || [];
    } catch (err) {
      showError(err);
      state.projects = [];
    }
    const saved = localStorage.getItem(storageKey);
    const pick = state.projects.find((p) => p.project_id === saved) || state.projects[0];
    renderProjects(pick ? pick.project_id : null);
  }

  function renderProjects(selectedId, reload = true) {
    const select = $("#project-select");
    clear(select);
    if (!state.projects.length) select.append(h("option", { value: "", text: "No project yet" }));
    for (const p of state.projects) {
      select.append(h("option", { value: p.project_id, text: p.name || p.project_id }));
    }
    select.value = selectedId || "";
    setProject(selectedId, reload);
  }

  function setProject(id, reload = true) {
    state.projectId = id || null;
    $("#project-actions").hidden = !state.projectId;
    if (id) localStorage.setItem(storageKey, id);
    if (reload) documents.load(state.projectId);
    else documents.projectId = state.projectId;
  }

  async function createProject(name, { reload = true } = {}) {
    const p = await api.post("/v1/projects", { name });
    state.projects.push({ ...p, name: p.name || name });
    renderProjects(p.project_id, reload);
    return p.project_id;
  }

  $("#project-select").addEventListener("change", (e) => {
    setProject(e.target.value);
    // a chat belongs to one project: picking another project starts a new chat there
    if (chat.sessionId) route(null);
  });
  $("#new-project").addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = $("#new-project-name");
    const name = input.value.trim();
    if (!name) return;
    try {
      await createProject(name);
      input.value = "";
    } catch (err) {
      showError(err);
    }
  });
  $("#delete-project").addEventListener("click", async () => {
    const id = state.projectId;
    const project = state.projects.find((p) => p.project_id === id);
    const name = project ? project.name || id : "this project";
    if (!id) return;
    const ok = await confirmDialog(`Delete the project “${name}” and all its documents? This cannot be undone.`,
      { title: "Delete project" });
    if (!ok) return;
    $("#project-actions").open = false;
    try {
      await api.del(`/v1/projects/${encodeURIComponent(id)}`);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) { showError(err); return; }
    }
    state.projects = state.projects.filter((p) => p.project_id !== id);
    if (localStorage.getItem(storageKey) === id) localStorage.removeItem(storageKey);
    renderProjects(state.projects[0] ? state.projects[0].project_id : null);
    if (chat.sessionId) route(null);
    announce(`Deleted the project ${name}`);
  });
  $("#new-chat").addEventListener("click", () => { route(null); layout.closePanels(); });

  /** The open chat lives in the URL hash (#s=<id>), so reload and back/forward keep it. */
  function route(id) {
    if (sharedId) { location.assign(id ? `/#s=${encodeURIComponent(id)}` : "/"); return; }  // leave the shared view
    const hash = id ? `#s=${encodeURIComponent(id)}` : "";
    if (location.hash !== hash) history.pushState(null, "", hash || location.pathname + location.search);
    applyRoute();
  }

  function applyRoute() {
    const m = location.hash.match(/^#s=(.+)$/);
    const id = m ? decodeURIComponent(m[1]) : sharedId;
    viewer.sharedSession = id && id === sharedId ? id : null;  // a shared chat's pages come through the chat
    sessions.select(id);
    // a chat shared with you (read-only): no pin or export until the server says it is yours (onSessionInfo)
    tools.show(id === sharedId ? null : id, id === tools.sessionId && tools.pinned);
    if (!id) { share.setChat(null); picker.setSession(null); chat.newChat(); return; }
    if (id === sharedId) {
      chat.missingText = "This chat does not exist or is not shared with you.";
      if (id !== chat.sessionId) chat.open(id);
      return;
    }
    localStorage.setItem(lastChatKey, id);
    if (id !== chat.sessionId || !chat.busy) chat.open(id);
  }

  window.addEventListener("popstate", applyRoute);
  sessions.reset();
  projectsLoaded = loadProjects();
  projectsLoaded.then(() => {
    // opening the app at "/" reopens the chat you were in last (a reload no longer starts an empty one)
    const last = localStorage.getItem(lastChatKey);
    if (!location.hash && last && !sharedId) history.replaceState(null, "", `#s=${encodeURIComponent(last)}`);
    applyRoute();
  });
}

/** Narrow screens: the chats list and the documents panel slide over the conversation. */
function wireLayout() {
  const app = $("#app");
  const scrim = $("#scrim");
  const toggles = [
    [$("#toggle-sessions"), "show-sessions"],
    [$("#toggle-documents"), "show-documents"],
  ];
  const closePanels = () => {
    app.classList.remove("show-sessions", "show-documents");
    scrim.hidden = true;
    for (const [btn] of toggles) btn.setAttribute("aria-expanded", "false");
  };
  for (const [btn, cls] of toggles) {
    btn.addEventListener("click", () => {
      const open = !app.classList.contains(cls);
      closePanels();
      if (open) {
        app.classList.add(cls);
        scrim.hidden = false;
        btn.setAttribute("aria-expanded", "true");
      }
    });
  }
  $("#close-documents").addEventListener("click", closePanels);
  scrim.addEventListener("click", closePanels);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && (app.classList.contains("show-sessions") || app.classList.contains("show-documents"))) {
      closePanels();
    }
  });
  return { closePanels };
}

boot();
