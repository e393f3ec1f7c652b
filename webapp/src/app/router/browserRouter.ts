// What main.tsx takes from React Router, in a module of its own: it imports its parts one a task
// (issue 30), and a dynamic import of 'react-router' itself would keep every export of the
// library in the bundle (a namespace is not tree-shaken), twice the router's bytes.
export { createBrowserRouter, matchRoutes } from 'react-router'
