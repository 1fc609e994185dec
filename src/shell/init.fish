# codex-picker: shell integration for fish (3.1 or newer). In ~/.config/fish/config.fish
# (after fish_vi_key_bindings, if you use it):
#   codex-picker init fish | source
#
# Alt+R opens the picker. Enter on a session runs `cd <its folder> && codex resume <id> <args>`
# in this shell (args: the config file's resume_args); Esc leaves the line as it was.
#   cxp [FLAGS] [-- CODEX_ARGS]   the same from the prompt (FLAGS as codex-picker's)
# Set before the source line:
#   set -g CODEX_PICKER_KEY \cg   another key, in bind's notation ('' binds none)
# Read on every pick:
#   set -g CODEX_PICKER_ACCEPT 0  put the command on the line for Enter instead of running it
#   set -g CODEX_PICKER_OPTS --all  more picker flags
#   set -g CODEX_PICKER_HEIGHT 20   the picker's rows below the prompt (default 40%; '' for the
#                                   config file's height, else the whole screen)

# The picked session's command, quoted for fish by the picker; the picker's exit status
# (130 when cancelled).
function __codex_picker_command
    set -l height --height 40%
    if set -q CODEX_PICKER_HEIGHT
        set height
        test -n "$CODEX_PICKER_HEIGHT"
        and set height --height $CODEX_PICKER_HEIGHT
    end
    command codex-picker --print-command --shell fish $height (string split -n ' ' -- $CODEX_PICKER_OPTS) $argv
end

function cxp --description 'Pick a Codex session, then resume it in its folder'
    set -l cmd (__codex_picker_command $argv)
    or return
    eval $cmd
end

function __codex_picker_widget
    set -l cmd (__codex_picker_command)
    if test $status -eq 0 -a -n "$cmd"
        commandline -r -- $cmd
        if test "$CODEX_PICKER_ACCEPT" != 0
            commandline -f repaint execute
            return
        end
    end
    commandline -f repaint
end

function __codex_picker_bind
    set -l key \er
    set -q CODEX_PICKER_KEY
    and set key $CODEX_PICKER_KEY
    test -n "$key"
    or return 0
    bind $key __codex_picker_widget
    bind -M insert $key __codex_picker_widget
end
__codex_picker_bind
functions -e __codex_picker_bind
