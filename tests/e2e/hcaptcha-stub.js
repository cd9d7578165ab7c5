// Stands in for hCaptcha's api.js in tests (served by route interception, so no test reaches the internet).
// It renders one button; clicking it "solves" the captcha the way the real widget calls back.
(function () {
  var src = document.currentScript && document.currentScript.src;
  var onload = src ? new URL(src).searchParams.get('onload') : null;
  var token = '';
  window.hcaptcha = {
    render: function (el, opts) {
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = 'Stub captcha: I am human';
      b.addEventListener('click', function () {
        token = 'stub-captcha-token';
        if (opts && typeof opts.callback === 'function') opts.callback(token);
      });
      el.appendChild(b);
      return 'stub-widget';
    },
    getResponse: function () {
      return token;
    },
    getRespKey: function () {
      return '';
    },
    reset: function () {
      token = '';
    },
    remove: function () {},
    execute: function () {},
    close: function () {},
    setData: function () {},
  };
  if (onload && typeof window[onload] === 'function') window[onload]();
})();
