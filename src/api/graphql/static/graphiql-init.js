// GraphiQL for netledger's /graphql/, from the locally served graphiql and React bundles.
// A browser session's POSTs carry its CSRF token, as the browsable API's do.
(function () {
  function cookie(name) {
    var match = document.cookie.match(new RegExp('(?:^|; )' + name + '=([^;]*)'));
    return match ? decodeURIComponent(match[1]) : null;
  }
  var endpoint = document.getElementById('graphiql').getAttribute('data-endpoint');
  function fetcher(params) {
    var headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
    var csrf = cookie('csrftoken');
    if (csrf) headers['X-CSRFToken'] = csrf;
    return fetch(endpoint, { method: 'POST', headers: headers, credentials: 'same-origin', body: JSON.stringify(params) })
      .then(function (response) { return response.json(); });
  }
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, { fetcher: fetcher, defaultEditorToolsVisibility: true }));
})();
