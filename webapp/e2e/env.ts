// Where start-server.sh serves the app for the journeys. E2E_PORT moves it, so that two checkouts,
// or the two shards of scripts/e2e.mjs, can run their journeys side by side.
export const E2E_PORT = process.env.E2E_PORT ?? '18181'
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`
// Each server has its own data folder (start-server.sh), named by its port, so that the journeys
// read the mail of their own server.
export const DATA_FOLDER = `test-output/e2e-data-${E2E_PORT}`
