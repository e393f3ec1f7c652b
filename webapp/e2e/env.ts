// Where start-server.sh serves the app for the journeys. E2E_PORT moves it, so that two checkouts
// can run their journeys side by side.
export const BASE_URL = `http://127.0.0.1:${process.env.E2E_PORT ?? '18181'}`
