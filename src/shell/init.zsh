# codex-picker: shell integration for zsh. In ~/.zshrc:
#   eval "$(codex-picker init zsh)"
#
# Alt+R opens the picker. Enter on a session runs `cd <its folder> && codex resume <id> <args>`
# in this shell (args: the config file's resume_args); Esc leaves the line as it was.
#   cxp [FLAGS] [-- CODEX_ARGS]   the same from the prompt (FLAGS as codex-picker's)
# Set before the eval line:
#   CODEX_PICKER_KEY='^G'         another key, in bindkey's notation ('' binds none)
# Read on every pick:
#   CODEX_PICKER_ACCEPT=0         put the command on the line for Enter instead of running it
#   CODEX_PICKER_OPTS='--all'     more picker flags, separated by spaces
#   CODEX_PICKER_HEIGHT=20        the picker's rows below the prompt (default 40%; '' for the
#                                 config file's height, else the whole screen)

# The picked session's command, quoted for zsh by the picker; the picker's exit status
# (130 when cancelled).
__codex_picker_command() {
    emulate -L zsh
    local -a height=()
    [[ -z ${CODEX_PICKER_HEIGHT-40%} ]] || height=(--height "${CODEX_PICKER_HEIGHT-40%}")
    command codex-picker --print-command --shell zsh $height ${=CODEX_PICKER_OPTS} "$@"
}

cxp() {
    local cmd
    cmd=$(__codex_picker_command "$@") || return
    print -rs -- "$cmd"
    eval "$cmd"
}

__codex_picker_widget() {
    local cmd
    if cmd=$(__codex_picker_command); then
        BUFFER=$cmd
        CURSOR=$#BUFFER
        if [[ ${CODEX_PICKER_ACCEPT-1} != 0 ]]; then
            zle .accept-line
            return
        fi
    fi
    zle reset-prompt
}
zle -N __codex_picker_widget

() {
    local key=${CODEX_PICKER_KEY-'\er'}
    [[ -n $key ]] || return 0
    bindkey -M emacs "$key" __codex_picker_widget
    bindkey -M viins "$key" __codex_picker_widget
}
