import Foundation
import SampleApp
import SampleTerminal

/// The terminal MVVM sample: `swift run -c release LiveDataSample`.
@main
enum LiveDataSample {
    static let usage = """
        usage: LiveDataSample [options]

        A chat and social app over an embedded server whose other users chat, post, react and
        follow while you watch. Type ? in the app for its commands.

        options:
          --data <folder>       where the server's data and each user's cache and read markers
                                live (default: $LIVEDATA_SAMPLE_DATA, else a per-user folder)
          --user <id>           sign in as ada, alan, grace, linus, margaret or tim (default: ada);
                                run a second terminal with another user on the same folder to
                                chat live between them
          --demo                play a short scripted session by itself and exit (0 when every
                                step finished); in a fresh temporary folder unless --data is given
          --plain               print plain lines even on a terminal
          --latency <ms>        how long the server takes to answer (default: 300)
          --activity <seconds>  time between the other users' actions; 0 for none (default: 4)
          --reset               start over: delete the data folder's files first (every user's)
          --server <url>        sign in to a livedata-server instead of the embedded server,
                                such as http://127.0.0.1:8080 (the cache stays in the data folder)
          --password <text>     the password for --server (default: $LIVEDATA_PASSWORD, else
                                asked for without echo)
          --help                show this help
        """

    @MainActor
    static func main() async {
        let options: Options
        do {
            options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            fail("\(error)\n\n\(usage)", code: 64)
        }
        if options.showsHelp {
            print(usage)
            return
        }
        var password: String?
        if options.server != nil {
            password = options.password ?? ProcessInfo.processInfo.environment["LIVEDATA_PASSWORD"]
            if password == nil {
                guard let typed = PasswordPrompt.read("password for \(options.userId): ") else {
                    fail("--server needs a password: --password, LIVEDATA_PASSWORD, or type it at the prompt", code: 64)
                }
                password = typed
            }
        }
        let configuration = options.configuration(password: password)
        if options.reset {
            do {
                try SampleDataFolder.reset(configuration.dataFolder)
            } catch {
                fail("\(error)", code: 1)
            }
        }
        let environment: SampleEnvironment
        do {
            environment = try await SampleEnvironment.open(configuration)
        } catch {
            fail("\(error)", code: 1)
        }
        let interactive = !options.plain && Terminal.isOutputInteractive && Terminal.isInputInteractive && !options.demo
        let fullScreen = !options.plain && Terminal.isOutputInteractive
        let rawSettings = interactive ? Terminal.enableRawMode() : nil
        let output: any ScreenOutput = fullScreen ? ANSIScreen() : PlainScreen()
        let app = TerminalApp(environment: environment, output: output, echoesCommands: !fullScreen)
        let resizes = redrawOnResize(app)
        app.start()
        var code: Int32 = 0
        if options.demo {
            code = await app.play(DemoStep.tour, pause: fullScreen ? .milliseconds(900) : .zero) ? 0 : 1
        } else {
            await app.run(InputReader.events(keys: rawSettings != nil))
        }
        resizes.cancel()
        app.shutdown()
        if let rawSettings { Terminal.restore(rawSettings) }
        if options.demo && options.dataFolder == nil {
            try? FileManager.default.removeItem(at: configuration.dataFolder)
        }
        if !fullScreen || options.demo { print(code == 0 ? "bye" : "the demo did not finish") }
        exit(code)
    }

    /// Redraws the app whenever the terminal's window changes size.
    @MainActor
    static func redrawOnResize(_ app: TerminalApp) -> any DispatchSourceSignal {
        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        source.setEventHandler { MainActor.assumeIsolated { app.setNeedsDisplay() } }
        source.resume()
        return source
    }

    static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data("LiveDataSample: \(message)\n".utf8))
        exit(code)
    }
}
