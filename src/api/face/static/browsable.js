// The browsable API's request form: sends the textarea's JSON with the chosen method.
// The response is shown as text (never as HTML). A token typed in is kept for this tab only.
(function () {
  'use strict';
  var form = document.getElementById('request-form');
  if (!form) return;
  var result = document.getElementById('request-result');
  var tokenInput = form.elements.namedItem('token');
  try {
    var saved = window.sessionStorage.getItem('netledger-token');
    if (saved && tokenInput && !tokenInput.value) tokenInput.value = saved;
  } catch (e) { /* storage unavailable */ }

  function cookie(name) {
    var parts = document.cookie ? document.cookie.split('; ') : [];
    for (var i = 0; i < parts.length; i++) {
      var eq = parts[i].indexOf('=');
      if (parts[i].slice(0, eq) === name) return decodeURIComponent(parts[i].slice(eq + 1));
    }
    return null;
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var method = form.elements.namedItem('method').value;
    var content = form.elements.namedItem('content').value;
    var token = tokenInput ? tokenInput.value.trim() : '';
    var headers = { 'Accept': 'application/json; indent=4' };
    var body;
    if (method !== 'GET' && method !== 'OPTIONS' && content.trim() !== '') {
      headers['Content-Type'] = 'application/json';
      body = content;
    }
    if (token) headers['Authorization'] = 'Token ' + token;
    var csrf = cookie('csrftoken');
    if (csrf) headers['X-CSRFToken'] = csrf;
    try {
      if (token) window.sessionStorage.setItem('netledger-token', token);
      else window.sessionStorage.removeItem('netledger-token');
    } catch (e) { /* storage unavailable */ }
    result.hidden = false;
    result.textContent = method + ' ' + form.dataset.url + ' ...';
    fetch(form.dataset.url, { method: method, headers: headers, body: body, credentials: 'same-origin' })
      .then(function (response) {
        return response.text().then(function (text) {
          var lines = ['HTTP ' + response.status + ' ' + response.statusText];
          var allow = response.headers.get('Allow');
          if (allow) lines.push('Allow: ' + allow);
          var location = response.headers.get('Location');
          if (location) lines.push('Location: ' + location);
          lines.push('');
          lines.push(text);
          result.textContent = lines.join('\n');
        });
      })
      .catch(function (error) {
        result.textContent = 'Request failed: ' + error;
      });
  });
})();
