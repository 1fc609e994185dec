# codex-picker: shell integration for bash (4.0 or newer). In ~/.bashrc:
#   eval "$(codex-picker init bash)"
#
# Alt+R opens the picker. Enter on a session runs `cd <its folder> && codex resume <id> <args>`
# in this shell (args: the config file's resume_args); Esc leaves the line as it was.
#   cxp [FLAGS] [-- CODEX_ARGS]   the same from the prompt (FLAGS as codex-picker's)
# Set before the eval line:
#   CODEX_PICKER_KEY='\C-g'       another key, in readline's notation ('' binds none)
# Read on every pick:
#   CODEX_PICKER_ACCEPT=0         put the command on the line for Enter instead of running it
#   CODEX_PICKER_OPTS='--all'     more picker flags, separated by spaces
#   CODEX_PICKER_HEIGHT=20        the picker's rows below the prompt (default 40%; '' for the
#                                 config file's height, else the whole screen)

# The picked session's command, quoted for bash by the picker; the picker's exit status
# (130 when cancelled).
__codex_picker_command() {
    local -a opts=() height=()
    read -r -a opts <<< "${CODEX_PICKER_OPTS-}"
    [[ -z ${CODEX_PICKER_HEIGHT-40%} ]] || height=(--height "${CODEX_PICKER_HEIGHT-40%}")
    command codex-picker --print-command --shell bash "${height[@]}" "${opts[@]}" "$@"
}

cxp() {
    local cmd
    cmd=$(__codex_picker_command "$@") || return
    # In the history in place of `cxp`, as if typed.
    history -s "$cmd"
    eval "$cmd"
}

# Run by the key through readline (bind -x): the command goes on the line, and the key's second
# half (\C-x\C-_\C-b) is bound to accept it, or to a redraw when there is nothing to run.
__codex_picker_widget() {
    local cmd
    if cmd=$(__codex_picker_command); then
        READLINE_LINE=$cmd
        READLINE_POINT=${#READLINE_LINE}
        if [[ ${CODEX_PICKER_ACCEPT-1} != 0 ]]; then
            bind '"\C-x\C-_\C-b": accept-line'
            return
        fi
    fi
    bind '"\C-x\C-_\C-b": redraw-current-line'
}

__codex_picker_bind() {
    local key=${CODEX_PICKER_KEY-'\er'} map
    [[ -n $key ]] || return 0
    for map in emacs-standard vi-insert; do
        bind -m "$map" -x '"\C-x\C-_\C-a": __codex_picker_widget'
        bind -m "$map" '"\C-x\C-_\C-b": redraw-current-line'
        bind -m "$map" "\"$key\": \"\\C-x\\C-_\\C-a\\C-x\\C-_\\C-b\""
    done
}

if [[ $- == *i* ]]; then
    __codex_picker_bind
fi
