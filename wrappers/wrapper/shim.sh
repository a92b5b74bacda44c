# smile-loop exit-code shim (sourced; records bash -c commands and their exit codes)
if [ -n "${SMILE_GATE:-}" ] && [ -n "${BASH_VERSION:-}" ]; then
  eval 'if exec {__smile_fd}<>"/dev/tcp/${SMILE_GATE%:*}/${SMILE_GATE##*:}"; then
    printf "GET /.smile/shell HTTP/1.0\r\n\r\n" >&"$__smile_fd"; read -r -t 5 __smile_l <&"$__smile_fd"; exec {__smile_fd}>&-
  fi' 2>/dev/null
  unset __smile_fd __smile_l
fi
if [ -n "${SMILE_PROXY_VARS:-}" ]; then unset $SMILE_PROXY_VARS SMILE_PROXY_VARS; fi
if [ -n "${SMILE_CMDLOG:-}" ] && [ -n "${BASH_EXECUTION_STRING:-}" ] && [ -z "${__SMILE_SHIM_ACTIVE:-}" ]; then
  export __SMILE_SHIM_ACTIVE=1
  __smile_t0=$(date +%s%N 2>/dev/null || echo 0)
  __smile_record() {
    __smile_rc=$?
    __smile_t1=$(date +%s%N 2>/dev/null || echo 0)
    printf '%s\t%s\t%s\n' "$__smile_rc" "$(( (__smile_t1 - __smile_t0) / 1000000 ))" \
      "$(printf '%s' "$BASH_EXECUTION_STRING" | base64 -w0 2>/dev/null)" >> "$SMILE_CMDLOG" 2>/dev/null
    return $__smile_rc
  }
  trap __smile_record EXIT
fi
