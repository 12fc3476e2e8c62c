// The ledger story over @modelcontextprotocol/client 2.x, which negotiates the
// 2026-07-28 era with `server/discover` (versionNegotiation 'auto') and must end
// up modern against dochiya; callTool validates structuredContent against the
// outputSchema cached from tools/list.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { env, report, runStory, StoryFailure, tamperingFetch } from './story.mjs';

const label = 'ts-client-2.x';
await report(label, async () => {
  const { url, token } = env();
  const tamper = tamperingFetch();
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: tamper.fetch,
  });
  const client = new Client({ name: 'dochiya-story-ts-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport);
  try {
    const version = client.getNegotiatedProtocolVersion();
    if (version !== '2026-07-28') throw new StoryFailure(`negotiated ${version}, expected 2026-07-28 via server/discover`);
    console.log(`[${label}] ok: server/discover negotiated ${version} (server ${JSON.stringify(client.getServerVersion())})`);
    const steps = await runStory(label, {
      listTools: async () => (await client.listTools()).tools,
      callTool: (name, args) => client.callTool({ name, arguments: args }),
    }, tamper.state);
    return [`negotiated ${version}`, ...steps];
  } finally {
    await client.close();
  }
});
